import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  failedReasonSchema,
  fileTypeSchema,
  jobStatusSchema,
  renderConfigSchema,
  sceneAnalysisSchema,
  validateRequestSchema,
  type FailedReason,
  type JobStatus,
  type RenderConfig,
  type SceneAnalysis,
  type ValidateRequest,
} from '../../shared/api';
import type { Db } from './db';
import { parseJsonColumn, parseRow } from './db-rows';
import { type RenderPlan, renderPlanSchema } from '../plan';
import { assertJobTransition } from './job-states';

/** What the node knows of the source file of a job. */
export const sceneFileSchema = z.object({
  fileName: z.string(),
  fileType: fileTypeSchema,
  size: z.number().int(),
  slug: z.string(),
  /** The `.blend` rendered, relative to the extracted bundle (zip) or the file name (blend). */
  scenePath: z.string().nullable(),
});
export type SceneFileInfo = z.infer<typeof sceneFileSchema>;

/** A job as stored by the node. */
export interface JobRecord {
  id: string;
  seq: number;
  status: JobStatus;
  userId: string;
  uploadSlug: string;
  rootFolderId: string;
  createdAt: string;
  updatedAt: string;
  queuedAt: string | null;
  validateConfig: ValidateRequest | null;
  analysisId: string | null;
  analysis: SceneAnalysis | null;
  sceneFile: SceneFileInfo | null;
  requestedConfig: RenderConfig | null;
  /** Echoed to clients as it was stored (see FinalConfig in render-plan.ts). */
  finalConfig: unknown;
  renderPlan: RenderPlan | null;
  failedReason: FailedReason | null;
  totalFrames: number;
  completedFrames: number;
  normalizedSeconds: number | null;
  previewPath: string | null;
  pid: number | null;
  completedAt: string | null;
  /** 0 (lowest) to 100 (highest), 50 unless asked: renders are ordered by it first. */
  priority: number;
  /** Worker tags a render needs: only workers (or a node) carrying all of them render it. */
  requires: string[];
}

const jobRowSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  status: jobStatusSchema,
  user_id: z.string(),
  upload_slug: z.string(),
  root_folder_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  queued_at: z.string().nullable(),
  validate_config: z.string().nullable(),
  analysis_id: z.string().nullable(),
  analysis: z.string().nullable(),
  scene_file: z.string().nullable(),
  requested_config: z.string().nullable(),
  final_config: z.string().nullable(),
  render_plan: z.string().nullable(),
  failed_reason: z.string().nullable(),
  total_frames: z.number().int(),
  completed_frames: z.number().int(),
  normalized_seconds: z.number().nullable(),
  preview_path: z.string().nullable(),
  pid: z.number().int().nullable(),
  completed_at: z.string().nullable(),
  priority: z.number().int(),
  requires: z.string(),
});

const countSchema = z.object({ n: z.number().int() });
const frameRowSchema = z.object({ frame: z.number().int(), filePath: z.string(), seconds: z.number(), worker: z.string().nullable() });
const eventRowSchema = z.object({ status: jobStatusSchema, at: z.string(), detail: z.string().nullable() });

function fromRow(value: unknown): JobRecord {
  const r = parseRow('jobs', jobRowSchema, value);
  return {
    id: r.id,
    seq: r.seq,
    status: r.status,
    userId: r.user_id,
    uploadSlug: r.upload_slug,
    rootFolderId: r.root_folder_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    queuedAt: r.queued_at,
    validateConfig: parseJsonColumn('jobs.validate_config', validateRequestSchema, r.validate_config),
    analysisId: r.analysis_id,
    analysis: parseJsonColumn('jobs.analysis', sceneAnalysisSchema, r.analysis),
    sceneFile: parseJsonColumn('jobs.scene_file', sceneFileSchema, r.scene_file),
    requestedConfig: parseJsonColumn('jobs.requested_config', renderConfigSchema, r.requested_config),
    finalConfig: r.final_config === null ? null : JSON.parse(r.final_config),
    renderPlan: parseJsonColumn('jobs.render_plan', renderPlanSchema, r.render_plan),
    failedReason: parseJsonColumn('jobs.failed_reason', failedReasonSchema, r.failed_reason),
    totalFrames: r.total_frames,
    completedFrames: r.completed_frames,
    normalizedSeconds: r.normalized_seconds,
    previewPath: r.preview_path,
    pid: r.pid,
    completedAt: r.completed_at,
    priority: r.priority,
    requires: parseJsonColumn('jobs.requires', z.array(z.string()), r.requires) ?? [],
  };
}

/** Fields that may be changed on a job, with the column each maps to. */
const COLUMNS = {
  queuedAt: 'queued_at',
  validateConfig: 'validate_config',
  analysisId: 'analysis_id',
  analysis: 'analysis',
  sceneFile: 'scene_file',
  requestedConfig: 'requested_config',
  finalConfig: 'final_config',
  renderPlan: 'render_plan',
  failedReason: 'failed_reason',
  totalFrames: 'total_frames',
  completedFrames: 'completed_frames',
  normalizedSeconds: 'normalized_seconds',
  previewPath: 'preview_path',
  pid: 'pid',
  completedAt: 'completed_at',
  priority: 'priority',
  requires: 'requires',
} as const;
const JSON_FIELDS = new Set(['validateConfig', 'analysis', 'sceneFile', 'requestedConfig', 'finalConfig', 'renderPlan', 'failedReason', 'requires']);

export type JobPatch = Partial<Pick<JobRecord, keyof typeof COLUMNS>>;

const isPatchField = (field: string): field is keyof typeof COLUMNS => Object.hasOwn(COLUMNS, field);

/** One status change in a job's timeline. */
export interface JobEvent {
  status: JobStatus;
  at: string;
  detail: string | null;
}

/** Job persistence: creation, compare-and-set status transitions, patches, listing. */
export class JobsRepo {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  create(input: { userId: string; uploadSlug: string; sceneFile: SceneFileInfo }): JobRecord {
    const id = randomUUID();
    const at = this.now().toISOString();
    const seq = parseRow('jobs', countSchema, this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM jobs').get()).n;
    this.db
      .prepare(
        `INSERT INTO jobs (id, seq, status, user_id, upload_slug, root_folder_id, created_at, updated_at, scene_file)
         VALUES (?, ?, 'created', ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, seq, input.userId, input.uploadSlug, randomUUID(), at, at, JSON.stringify(input.sceneFile));
    this.recordEvent(id, 'created', null, at);
    return this.get(id)!;
  }

  get(id: string): JobRecord | null {
    const row: unknown = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id);
    return row === undefined ? null : fromRow(row);
  }

  /**
   * Move a job to `to` only if it is currently in one of `from`, applying `patch` in the same
   * transaction. Returns the updated job, or null when the job was not in one of `from` (it moved on
   * meanwhile). Throws a JobTransitionError, before reading the job, when the state machine
   * (JOB_TRANSITIONS) does not allow a move to `to` from one of `from`.
   */
  transition(id: string, from: readonly JobStatus[], to: JobStatus, patch: JobPatch = {}, detail: string | null = null): JobRecord | null {
    assertJobTransition(from, to);
    const at = this.now().toISOString();
    const run = this.db.transaction(() => {
      const current = this.get(id);
      if (!current || !from.includes(current.status)) return null;
      this.write(id, { ...patch }, { status: to, updated_at: at });
      this.recordEvent(id, to, detail, at);
      return this.get(id);
    });
    return run();
  }

  /** Change fields without touching the status. Bumps `updatedAt` unless `touch` is false. */
  patch(id: string, patch: JobPatch, touch = true): void {
    this.write(id, patch, touch ? { updated_at: this.now().toISOString() } : {});
  }

  private write(id: string, patch: JobPatch, extra: Record<string, unknown>): void {
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const [field, value] of Object.entries(patch)) {
      const column = isPatchField(field) ? COLUMNS[field] : undefined;
      if (!column) continue;
      sets.push(`${column} = ?`);
      values.push(JSON_FIELDS.has(field) && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null));
    }
    for (const [column, value] of Object.entries(extra)) {
      sets.push(`${column} = ?`);
      values.push(value);
    }
    if (sets.length === 0) return;
    this.db.prepare(`UPDATE jobs SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
  }

  /** A page of jobs, newest first, optionally of one status. */
  list(page: number, pageSize: number, status?: JobStatus): { jobs: JobRecord[]; total: number } {
    const where = status ? 'WHERE status = ?' : '';
    const args = status ? [status] : [];
    const total = parseRow('jobs', countSchema, this.db.prepare(`SELECT COUNT(*) AS n FROM jobs ${where}`).get(...args)).n;
    const rows = this.db.prepare(`SELECT * FROM jobs ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(...args, pageSize, (page - 1) * pageSize);
    return { jobs: rows.map(fromRow), total };
  }

  /** Jobs in any of the given statuses, oldest first. */
  inStatus(statuses: readonly JobStatus[]): JobRecord[] {
    const marks = statuses.map(() => '?').join(', ');
    return this.db
      .prepare(`SELECT * FROM jobs WHERE status IN (${marks}) ORDER BY COALESCE(queued_at, created_at), seq`)
      .all(...statuses)
      .map(fromRow);
  }

  /** A job's status changes, oldest first. */
  events(id: string): JobEvent[] {
    return this.db
      .prepare('SELECT status, at, detail FROM job_events WHERE job_id = ? ORDER BY rowid')
      .all(id)
      .map((row) => parseRow('job_events', eventRowSchema, row));
  }

  private recordEvent(id: string, status: JobStatus, detail: string | null, at: string): void {
    this.db.prepare('INSERT INTO job_events (job_id, at, status, detail) VALUES (?, ?, ?, ?)').run(id, at, status, detail);
  }

  /** Record a written frame (idempotent) and return the job's number of written frames; `worker` names the render worker that made it (null: the node). */
  recordFrame(id: string, frame: number, filePath: string, seconds: number, worker: string | null = null): number {
    const at = this.now().toISOString();
    return this.db.transaction(() => {
      this.db
        .prepare('INSERT OR IGNORE INTO frames (job_id, frame, file_path, seconds, written_at, worker) VALUES (?, ?, ?, ?, ?, ?)')
        .run(id, frame, filePath, seconds, at, worker);
      const n = parseRow('frames', countSchema, this.db.prepare('SELECT COUNT(*) AS n FROM frames WHERE job_id = ?').get(id)).n;
      this.db.prepare('UPDATE jobs SET completed_frames = ?, updated_at = ? WHERE id = ?').run(n, at, id);
      return n;
    })();
  }

  /** Forget frames of a job (their files are the caller's), and return the job's number of written frames left. */
  deleteFrames(id: string, frames: readonly number[]): number {
    return this.db.transaction(() => {
      const remove = this.db.prepare('DELETE FROM frames WHERE job_id = ? AND frame = ?');
      for (const frame of frames) remove.run(id, frame);
      const n = parseRow('frames', countSchema, this.db.prepare('SELECT COUNT(*) AS n FROM frames WHERE job_id = ?').get(id)).n;
      this.db.prepare('UPDATE jobs SET completed_frames = ? WHERE id = ?').run(n, id);
      return n;
    })();
  }

  /**
   * Put a job that ended back in the render queue for `frames` (a requeue): forgets those frames and
   * moves it from one of `from` to `to` with `patch`, in one transaction. Null when it was not in `from`.
   */
  requeue(id: string, from: readonly JobStatus[], to: JobStatus, frames: readonly number[], patch: JobPatch, detail: string): JobRecord | null {
    assertJobTransition(from, to);
    return this.db.transaction(() => {
      const current = this.get(id);
      if (!current || !from.includes(current.status)) return null;
      const left = this.deleteFrames(id, frames);
      return this.transition(id, from, to, { ...patch, completedFrames: left }, detail);
    })();
  }

  /** Frames written for a job, in frame order, or in the order the node counted them (`written`). */
  frames(id: string, order: 'frame' | 'written' = 'frame'): { frame: number; filePath: string; seconds: number; worker: string | null }[] {
    return this.db
      .prepare(`SELECT frame, file_path AS filePath, seconds, worker FROM frames WHERE job_id = ? ORDER BY ${order === 'written' ? 'written_at, rowid' : 'frame'}`)
      .all(id)
      .map((row) => parseRow('frames', frameRowSchema, row));
  }
}
