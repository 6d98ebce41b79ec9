import { z } from 'zod';
import type { Job } from './job';
import { MAX_TAGS, TAG, TAG_RULE } from '../worker-tags';

/**
 * What a Renderdrop node adds for a studio's farm (extensions of the node, not of the Render Job API):
 * job priorities, the worker tags a job requires, requeueing frames inside a job, and blocking a
 * worker for a job or for every job. A farm without them answers 404 on the routes and leaves the
 * fields out of its jobs; clients then hide or explain what they cannot do there.
 */

/** A job's priority: 0 (lowest) to 100 (highest); work is ordered by it first. */
export const PRIORITY = { min: 0, max: 100, default: 50 } as const;

export const prioritySchema = z
  .number({ error: `priority is a whole number from ${PRIORITY.min} to ${PRIORITY.max}.` })
  .int({ error: `priority is a whole number from ${PRIORITY.min} to ${PRIORITY.max}.` })
  .min(PRIORITY.min, { error: `priority is a whole number from ${PRIORITY.min} to ${PRIORITY.max}.` })
  .max(PRIORITY.max, { error: `priority is a whole number from ${PRIORITY.min} to ${PRIORITY.max}.` });

export { MAX_TAGS, parseTags } from '../worker-tags';

/** One worker tag: `gpu`, `big-ram`, `studio-b`. */
export const workerTagSchema = z.string().regex(TAG, { error: TAG_RULE });

/** Tags a worker carries, or a job requires: distinct, at most {@link MAX_TAGS}. */
export const tagListSchema = z
  .array(workerTagSchema)
  .max(MAX_TAGS, { error: `at most ${MAX_TAGS} tags.` })
  .refine((tags) => new Set(tags).size === tags.length, { error: 'a tag is listed twice.' });

/** Body of `PATCH /node/jobs/{id}`: change a job's priority, or the tags it requires, while it has not ended. */
export const jobSettingsPatchSchema = z
  .object({
    priority: prioritySchema.optional(),
    requires: tagListSchema.optional(),
  })
  .strict()
  .refine((patch) => patch.priority !== undefined || patch.requires !== undefined, { error: 'Give priority, requires, or both.' });
export type JobSettingsPatch = z.infer<typeof jobSettingsPatchSchema>;

/**
 * Body of `POST /node/jobs/{id}/requeue`: render frames again inside the same job, keeping every other
 * frame. `frames` are frame range expressions (`["5", "9-12"]`), or `failed: true` for every frame of
 * the job that has not been rendered.
 */
export const requeueRequestSchema = z.union([
  z.object({ frames: z.array(z.string().min(1)).min(1) }).strict(),
  z.object({ failed: z.literal(true) }).strict(),
]);
export type RequeueRequest = z.infer<typeof requeueRequestSchema>;

/** Body of `POST /node/workers/block` and `/unblock`: a worker by name, for one job or (no jobId) for every job. */
export const workerBlockRequestSchema = z
  .object({
    worker: z.string().min(1).max(200),
    jobId: z.string().min(1).optional(),
  })
  .strict();
export type WorkerBlockRequest = z.infer<typeof workerBlockRequestSchema>;

/** A worker kept from a job (or from every job, `jobId` null): by hand, or after failing the job's chunks. */
export const workerBlockSchema = z.object({
  worker: z.string(),
  jobId: z.string().nullable(),
  /** `failures`: it failed the job's chunks {@link MAX_WORKER_FAILURES} times. */
  by: z.enum(['hand', 'failures']),
  since: z.string(),
});
export type WorkerBlock = z.infer<typeof workerBlockSchema>;

/** A worker that fails this many chunks of one job is blocked for that job. */
export const MAX_WORKER_FAILURES = 2;

/** When a render waiting for the farm is expected to start (the node's `waiting` extra). */
const waitingSchema = z.looseObject({
  jobsAhead: z.number().int(),
  /** Seconds until it starts, from the work ahead of it; null when that cannot be known (then `statusMessage` says why). */
  startsInSeconds: z.number().nullish(),
});

/** The studio fields a Renderdrop node adds to a job, or null values from a farm that has none. */
export interface JobStudio {
  priority: number | null;
  requires: string[];
  waiting: { jobsAhead: number; startsInSeconds: number | null } | null;
}

/** Read the studio fields of a job payload (priority, requires, waiting), ignoring what does not fit. */
export function studioOf(job: Pick<Job, 'priority' | 'requires' | 'waiting'> | Job): JobStudio {
  const priority = prioritySchema.safeParse((job as Job).priority);
  const requires = tagListSchema.safeParse((job as Job).requires);
  const waiting = waitingSchema.safeParse((job as Job).waiting);
  return {
    priority: priority.success ? priority.data : null,
    requires: requires.success ? requires.data : [],
    waiting: waiting.success ? { jobsAhead: waiting.data.jobsAhead, startsInSeconds: waiting.data.startsInSeconds ?? null } : null,
  };
}
