import type { JobSummary, SubmissionPhase, SubmissionView } from '../../shared/contract';
import type { DroppedFile } from '../stores';

/** One row of the queue: a file being handed over, a submission on its way, or a job on the farm. */
export type QueueItem =
  | { kind: 'dropped'; key: string; file: DroppedFile }
  | { kind: 'submission'; key: string; submission: SubmissionView }
  | { kind: 'job'; key: string; job: JobSummary; submission: SubmissionView | null; run?: SceneRun };

/** Which run of its scene a grouped job is (the latest has the highest number and heads the group). */
export interface SceneRun {
  number: number;
  of: number;
  /** The group's key (see `sceneKey`). */
  scene: string;
  /** Every run of the scene, latest first (on the head row only; empty on the others). */
  runs: JobSummary[];
  /** Whether the earlier runs are folded away under the head row. */
  collapsed: boolean;
}

/** Phases in which a submission is on its way to the queue, or stopped before it got there. */
const ON_THE_WAY: ReadonlySet<SubmissionPhase> = new Set(['packing', 'missing-files', 'uploading', 'choose-scene', 'validating', 'review', 'starting', 'failed']);
/** Phases that the job's own row shows, once the job is in the queue. */
const ON_THE_JOB_ROW: ReadonlySet<SubmissionPhase> = new Set(['validating', 'review', 'starting', 'rendering', 'downloading', 'done']);

/**
 * The queue as one list: files being handed over and submissions on their way first (oldest first,
 * as they were dropped), then the jobs as given (newest first). A submission whose job is in the queue
 * is shown on the job's row, not twice; one that stopped with an error keeps its own row, unless its
 * job failed: the job's row then says why, once.
 */
export function queueItems(dropped: readonly DroppedFile[], submissions: readonly SubmissionView[], jobs: readonly JobSummary[]): QueueItem[] {
  const jobsById = new Map(jobs.map((j) => [j.id, j]));
  const onJobRow = (s: SubmissionView): boolean => {
    const job = s.jobId === null ? undefined : jobsById.get(s.jobId);
    return job !== undefined && (ON_THE_JOB_ROW.has(s.phase) || (s.phase === 'failed' && job.status === 'failed'));
  };
  const bySubmission = new Map(submissions.map((s) => [s.id, s]));
  const byJob = new Map<string, SubmissionView>();
  for (const s of submissions) if (s.jobId !== null) byJob.set(s.jobId, s);
  const items: QueueItem[] = [];
  for (const file of dropped) {
    const handedOver = file.status === 'accepted' && file.submissionId !== null && bySubmission.has(file.submissionId);
    if (!handedOver) items.push({ kind: 'dropped', key: `dropped:${file.key}`, file });
  }
  const onTheWay = submissions
    .filter((s) => ON_THE_WAY.has(s.phase) && !onJobRow(s))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const submission of onTheWay) items.push({ kind: 'submission', key: `submission:${submission.id}`, submission });
  for (const job of jobs) items.push({ kind: 'job', key: `job:${job.id}`, job, submission: byJob.get(job.id) ?? null });
  return items;
}
