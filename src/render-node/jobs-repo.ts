import { randomUUID } from 'node:crypto';
import type { FailedReason, JobStatus } from '../shared/api';
import type { Db } from './db';

/** What the node knows of the source file of a job. */
export interface SceneFileInfo {
  fileName: string;
  fileType: 'blend' | 'zip';
  size: number;
  slug: string;
  /** The `.blend` rendered, relative to the extracted bundle (zip) or the file name (blend). */
  scenePath: string | null;
}

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
  validateConfig: Record<string, unknown> | null;
  analysisId: string | null;
  analysis: unknown;
  sceneFile: SceneFileInfo | null;
  requestedConfig: unknown;
  finalConfig: unknown;
  renderPlan: unknown;
  failedReason: FailedReason | null;
  totalFrames: number;
  completedFrames: number;
  normalizedSeconds: number | null;
  previewPath: string | null;
  pid: number | null;
  completedAt: string | null;
}

interface JobRow {
  id: string;
  seq: number;
  status: string;
  user_id: string;
  upload_slug: string;
  root_folder_id: string;
  created_at: string;
  updated_at: string;
  queued_at: string | null;
  validate_config: string | null;
  analysis_id: string | null;
  analysis: string | null;
  scene_file: string | null;
  requested_config: string | null;
  final_config: string | null;
  render_plan: string | null;
  failed_reason: string | null;
  total_frames: number;
  completed_frames: number;
  normalized_seconds: number | null;
  preview_path: string | null;
  pid: number | null;
  completed_at: string | null;
}

const json = (s: string | null): unknown => (s === null ? null : JSON.parse(s));

function fromRow(r: JobRow): JobRecord {
  return {
    id: r.id,
    seq: r.seq,
    status: r.status as JobStatus,
    userId: r.user_id,
    uploadSlug: r.upload_slug,
    rootFolderId: r.root_folder_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    queuedAt: r.queued_at,
    validateConfig: json(r.validate_config) as Record<string, unknown> | null,
    analysisId: r.analysis_id,
    analysis: json(r.analysis),
    sceneFile: json(r.scene_file) as SceneFileInfo | null,
    requestedConfig: json(r.requested_config),
    finalConfig: json(r.final_config),
    renderPlan: json(r.render_plan),
    failedReason: json(r.failed_reason) as FailedReason | null,
    totalFrames: r.total_frames,
    completedFrames: r.completed_frames,
    normalizedSeconds: r.normalized_seconds,
    previewPath: r.preview_path,
    pid: r.pid,
    completedAt: r.completed_at,
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
} as const;
const JSON_FIELDS = new Set(['validateConfig', 'analysis', 'sceneFile', 'requestedConfig', 'finalConfig', 'renderPlan', 'failedReason']);

export type JobPatch = Partial<Pick<JobRecord, keyof typeof COLUMNS>>;

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
    const seq = (this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM jobs').get() as { n: number }).n;
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
    const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
    return row ? fromRow(row) : null;
  }

  /**
   * Move a job to `to` only if it is currently in one of `from`, applying `patch` in the same
   * transaction. Returns the updated job, or null when the job was not in an allowed status.
   */
  transition(id: string, from: readonly JobStatus[], to: JobStatus, patch: JobPatch = {}, detail: string | null = null): JobRecord | null {
    const at = this.now().toISOString();
    const run = this.db.transaction(() => {
      const current = this.get(id);
      if (!current || !from.includes(current.status)) return null;
      this.write(id, { ...patch }, { status: to, updated_at: at });
      if (current.status !== to) this.recordEvent(id, to, detail, at);
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
      const column = COLUMNS[field as keyof typeof COLUMNS];
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
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM jobs ${where}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT * FROM jobs ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`)
      .all(...args, pageSize, (page - 1) * pageSize) as JobRow[];
    return { jobs: rows.map(fromRow), total };
  }

  /** Jobs in any of the given statuses, oldest first. */
  inStatus(statuses: readonly JobStatus[]): JobRecord[] {
    const marks = statuses.map(() => '?').join(', ');
    const rows = this.db
      .prepare(`SELECT * FROM jobs WHERE status IN (${marks}) ORDER BY COALESCE(queued_at, created_at), seq`)
      .all(...statuses) as JobRow[];
    return rows.map(fromRow);
  }

  /** A job's status changes, oldest first. */
  events(id: string): JobEvent[] {
    return this.db
      .prepare('SELECT status, at, detail FROM job_events WHERE job_id = ? ORDER BY rowid')
      .all(id) as JobEvent[];
  }

  private recordEvent(id: string, status: JobStatus, detail: string | null, at: string): void {
    this.db.prepare('INSERT INTO job_events (job_id, at, status, detail) VALUES (?, ?, ?, ?)').run(id, at, status, detail);
  }

  /** Record a written frame (idempotent) and return the job's number of written frames. */
  recordFrame(id: string, frame: number, filePath: string, seconds: number): number {
    const at = this.now().toISOString();
    return this.db.transaction(() => {
      this.db
        .prepare('INSERT OR IGNORE INTO frames (job_id, frame, file_path, seconds, written_at) VALUES (?, ?, ?, ?, ?)')
        .run(id, frame, filePath, seconds, at);
      const n = (this.db.prepare('SELECT COUNT(*) AS n FROM frames WHERE job_id = ?').get(id) as { n: number }).n;
      this.db.prepare('UPDATE jobs SET completed_frames = ?, updated_at = ? WHERE id = ?').run(n, at, id);
      return n;
    })();
  }

  /** Frames written for a job, in frame order. */
  frames(id: string): { frame: number; filePath: string; seconds: number }[] {
    return this.db
      .prepare('SELECT frame, file_path AS filePath, seconds FROM frames WHERE job_id = ? ORDER BY frame')
      .all(id) as { frame: number; filePath: string; seconds: number }[];
  }
}
