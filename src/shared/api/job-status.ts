import { z } from 'zod';
import { JOB_STATUSES } from '../api-values';

export { JOB_STATUSES };

export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/**
 * Where a status stands in a job's life: `validation` (before and during it), `review` (validated,
 * waiting for the go-ahead to render), `render` (from the render request until it ends), `ended`.
 */
export type JobStage = 'validation' | 'review' | 'render' | 'ended';

/** What a status means to a client. */
export interface JobStatusTraits {
  stage: JobStage;
  /** The server is doing work on the job right now, so its progress may move. */
  working: boolean;
}

/**
 * The one table of job statuses every part of Renderdrop reads (queue filters, tracker, CLI, the
 * submission lifecycle): each status's stage and whether the server is working on it.
 */
export const JOB_STATUS_TABLE = {
  created: { stage: 'validation', working: false },
  validating: { stage: 'validation', working: true },
  validated: { stage: 'review', working: false },
  debugging: { stage: 'render', working: true },
  rendering: { stage: 'render', working: true },
  finalizing: { stage: 'render', working: true },
  completed: { stage: 'ended', working: false },
  failed: { stage: 'ended', working: false },
  canceled: { stage: 'ended', working: false },
  booting: { stage: 'render', working: true },
  suspended: { stage: 'render', working: false },
} as const satisfies { readonly [S in JobStatus]: JobStatusTraits };

/** The statuses after which nothing more happens to a job. */
export type TerminalStatus = { [S in JobStatus]: (typeof JOB_STATUS_TABLE)[S]['stage'] extends 'ended' ? S : never }[JobStatus];

/** Whether nothing more will happen to a job in this status. */
export function isTerminalStatus(status: JobStatus): status is TerminalStatus {
  return JOB_STATUS_TABLE[status].stage === 'ended';
}

/** Whether a job in this status waits for someone to review it and start its render. */
export function needsReview(status: JobStatus): boolean {
  return JOB_STATUS_TABLE[status].stage === 'review';
}

/** Whether a job in this status is on its way (neither ended nor waiting for review): the queue's "active". */
export function isActiveStatus(status: JobStatus): boolean {
  const { stage } = JOB_STATUS_TABLE[status];
  return stage === 'validation' || stage === 'render';
}

/** Whether the server is working on a job in this status (validating or rendering), so its progress may move. */
export function isWorkingStatus(status: JobStatus): boolean {
  return JOB_STATUS_TABLE[status].working;
}

/** Whether validation is over for a job in this status (validated, rendering or ended). */
export function isPastValidation(status: JobStatus): boolean {
  return JOB_STATUS_TABLE[status].stage !== 'validation';
}
