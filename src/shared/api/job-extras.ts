import { z } from 'zod';
import { jobStatusSchema, type JobStatus } from './job-status';
import type { Job } from './job';

/**
 * Fields a job payload may carry beside the API's own (the local node adds `progress` and `timeline`;
 * servers name the scene file in `sceneFile` in their own ways). Each is read through a schema and
 * ignored when it does not fit, so another server's shape never breaks a client.
 */
const progressSchema = z.object({ completedFrames: z.number(), totalFrames: z.number() });
const timelineEntrySchema = z.object({ status: jobStatusSchema, at: z.string(), detail: z.string().optional() });
const sceneFileSchema = z.union([
  z.string(),
  z.looseObject({ fileName: z.unknown(), name: z.unknown(), originalName: z.unknown(), path: z.unknown() }).partial(),
]);
const analysisSceneSchema = z.looseObject({ scene: z.string().min(1) });
const adjustmentSchema = z.looseObject({ field: z.string().optional(), reason: z.string().optional() });
const configWithAdjustmentsSchema = z.looseObject({ adjustments: z.array(z.unknown()) });

/** Frame counts the payload carries (`progress`), if any. */
export function progressOf(job: Job): { completedFrames: number; totalFrames: number } | null {
  const parsed = progressSchema.safeParse(job.progress);
  return parsed.success ? { completedFrames: parsed.data.completedFrames, totalFrames: parsed.data.totalFrames } : null;
}

/** Why the server says a job waits (`statusMessage`, a node extra), when it says so. */
export function statusMessageOf(job: Job): string | null {
  return typeof job.statusMessage === 'string' && job.statusMessage.trim() !== '' ? job.statusMessage : null;
}

/**
 * The status changes the server reported (`timeline`), oldest first, with the node's words on a change
 * when it has some (`detail`: "requeued frames 5, 9-12"); entries it cannot read are left out.
 */
export function timelineOf(job: Job): { status: JobStatus; at: string; detail?: string }[] {
  if (!Array.isArray(job.timeline)) return [];
  return job.timeline.flatMap((entry: unknown) => {
    const parsed = timelineEntrySchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The file name (with extension, without folders) of the scene a job was made from, when the server says. */
export function sceneFileNameOf(job: Pick<Job, 'sceneFile'>): string | null {
  const parsed = sceneFileSchema.safeParse(job.sceneFile);
  if (!parsed.success) return null;
  const candidates = typeof parsed.data === 'string' ? [parsed.data] : [parsed.data.fileName, parsed.data.name, parsed.data.originalName, parsed.data.path];
  for (const value of candidates) {
    if (typeof value === 'string' && value.trim() !== '') return bundledScene(baseName(value), parsed.data) ?? (baseName(value) || null);
  }
  return null;
}

function baseName(path: string): string {
  return path.replace(/\\/g, '/').split('/').pop() ?? path;
}

/** The scene a bundle made by packing holds (`shot.zip` holding `shot.blend`), so both name the job alike. */
function bundledScene(name: string, sceneFile: unknown): string | null {
  const scenePath = z.looseObject({ scenePath: z.string() }).safeParse(sceneFile);
  if (!scenePath.success || !/\.zip$/i.test(name)) return null;
  const scene = baseName(scenePath.data.scenePath);
  return scene.toLowerCase() === `${name.slice(0, -4)}.blend`.toLowerCase() ? scene : null;
}

/** The scene name the analysis reports, when it has one. */
export function analysisSceneOf(job: Pick<Job, 'analysis'>): string | null {
  const parsed = analysisSceneSchema.safeParse(job.analysis);
  return parsed.success ? parsed.data.scene : null;
}

/** The changes a server made to a requested configuration (`adjustments` of the final config): field and reason. */
export function adjustmentsOf(finalConfig: unknown): { field: string | null; reason: string | null }[] {
  const parsed = configWithAdjustmentsSchema.safeParse(finalConfig);
  if (!parsed.success) return [];
  return parsed.data.adjustments.flatMap((entry) => {
    const adjustment = adjustmentSchema.safeParse(entry);
    return adjustment.success ? [{ field: adjustment.data.field ?? null, reason: adjustment.data.reason ?? null }] : [];
  });
}

/**
 * The scene name of a job, read defensively from `sceneFile` (fileName, name, originalName or path)
 * or the analysis' scene, without extension; null when the server says nothing usable.
 */
export function sceneNameOf(job: Pick<Job, 'sceneFile' | 'analysis'>): string | null {
  const fileName = sceneFileNameOf(job);
  return fileName !== null ? stripExtension(fileName) : analysisSceneOf(job);
}

function stripExtension(name: string): string {
  return name.replace(/\.(blend\d*|zip)$/i, '') || name;
}

/**
 * The latest run of a job's timeline: the entries after the last time it ended and was put back in
 * the render queue (a requeue of some frames), else all of them.
 */
export function currentRunOf<E extends { status: JobStatus }>(timeline: readonly E[]): E[] {
  const ended = new Set<JobStatus>(['completed', 'failed', 'canceled']);
  for (let i = timeline.length - 2; i >= 0; i--) if (ended.has(timeline[i]!.status)) return timeline.slice(i + 1);
  return [...timeline];
}

/** The node's words for the latest requeue of a job ("requeued frames 5, 9-12"), when it was requeued. */
export function lastRequeueOf(job: Job): string | null {
  return timelineOf(job).findLast((e) => e.detail?.startsWith('requeued ') === true)?.detail ?? null;
}
