import { JOB_STATUSES, type JobStatus } from '../../shared/api';

/**
 * The node's job state machine: for each status, the statuses a job may move to from it (the spec's
 * "States and transitions"). Validation runs `validating` -> `validated`; a render runs `booting` ->
 * `rendering` -> `finalizing` -> `completed`; the work of any of those steps may fail; every unfinished
 * job may be canceled, `debugging` and `suspended` included although this node never puts a job in
 * them. A job resumed after a restart, or a render that gave its slot to another key's, stays in its
 * status: resuming is not a transition. `completed`, `failed` and `canceled` end a job; the one way out
 * of them is a requeue of some of its frames, which puts a rendered job back in the render queue
 * (`booting`, see {@link REQUEUE_STATUSES}).
 */
export const JOB_TRANSITIONS = {
  created: ['validating', 'canceled'],
  validating: ['validated', 'failed', 'canceled'],
  validated: ['booting', 'canceled'],
  booting: ['rendering', 'failed', 'canceled'],
  rendering: ['finalizing', 'failed', 'canceled'],
  finalizing: ['completed', 'failed', 'canceled'],
  completed: ['booting'],
  failed: ['booting'],
  canceled: ['booting'],
  debugging: ['canceled'],
  suspended: ['canceled'],
} as const satisfies { readonly [S in JobStatus]: readonly JobStatus[] };

/** Whether the state machine lets a job move from `from` to `to`. */
export function canMoveJob(from: JobStatus, to: JobStatus): boolean {
  const next: readonly JobStatus[] = JOB_TRANSITIONS[from];
  return next.includes(to);
}

/** Every status from which a job may move to `to`, in the spec's order. */
export function statusesLeadingTo(to: JobStatus): JobStatus[] {
  return JOB_STATUSES.filter((from) => canMoveJob(from, to));
}

/** A status change the state machine does not allow was asked for: a mistake in the caller, not in the job. */
export class JobTransitionError extends Error {
  override readonly name = 'JobTransitionError';

  constructor(
    readonly from: JobStatus,
    readonly to: JobStatus,
  ) {
    const allowed: readonly JobStatus[] = JOB_TRANSITIONS[from];
    const next = allowed.length > 0 ? `it may only go to ${allowed.join(', ')}` : 'it is final';
    super(`A job may not move from ${from} to ${to}: ${next} (see JOB_TRANSITIONS in job-states.ts).`);
  }
}

/** Throw a {@link JobTransitionError} unless the state machine allows a move to `to` from every status in `from`. */
export function assertJobTransition(from: readonly JobStatus[], to: JobStatus): void {
  const refused = from.find((status) => !canMoveJob(status, to));
  if (refused !== undefined) throw new JobTransitionError(refused, to);
}

/**
 * The statuses the runner works on: a job in one of them is picked up by the runner, and resumed
 * after a stop or crash.
 */
export const RUNNER_STATUSES = ['validating', 'booting', 'rendering', 'finalizing'] as const satisfies readonly JobStatus[];

/** The statuses of a render waiting for a slot or holding one. */
export const RENDER_STATUSES = ['booting', 'rendering'] as const satisfies readonly JobStatus[];

/** The statuses from which frames of a job may be rendered again in the same job (a requeue). */
export const REQUEUE_STATUSES = ['completed', 'failed', 'canceled'] as const satisfies readonly JobStatus[];
