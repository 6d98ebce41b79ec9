import { type Job, isWorkingStatus } from '../../shared/api';
import type { CallOptions } from '../api';
import { AbortError } from '../errors';
import type { FrameProgress, JobTracker } from '../tracking';
import { abortableSleep, type Sleep } from '../util';

/** Options of one wait. */
export interface WaitOptions {
  signal?: AbortSignal;
  onJob?: (job: Job) => void;
  onProgress?: (progress: FrameProgress) => void;
}

/** Resolves with the job once `until(job)` holds. */
export type WaitForJob = (jobId: string, until: (job: Job) => boolean, options?: WaitOptions) => Promise<Job>;

/** The part of the API client polling needs. */
export interface PollingSource {
  getJob(jobId: string, options?: CallOptions): Promise<Job>;
  getProgress(jobId: string, options?: CallOptions): Promise<FrameProgress>;
}

/**
 * Waits by polling `GET /jobs/{id}` (and its progress while it is active) every `intervalMs`. For one
 * job at a time; use `trackerWaiter` when several are watched.
 */
export function pollingWaiter(client: PollingSource, options: { intervalMs?: number; sleep?: Sleep } = {}): WaitForJob {
  const sleep = options.sleep ?? abortableSleep;
  const interval = options.intervalMs ?? 2_000;
  return async (jobId, until, wait = {}) => {
    const call: CallOptions = wait.signal ? { signal: wait.signal } : {};
    let last: FrameProgress | null = null;
    for (;;) {
      const job = await client.getJob(jobId, call);
      wait.onJob?.(job);
      if (until(job)) return job;
      if (wait.onProgress && isWorkingStatus(job.status)) {
        const progress = await client.getProgress(jobId, call);
        if (!last || last.completedFrames !== progress.completedFrames || last.totalFrames !== progress.totalFrames) {
          last = { completedFrames: progress.completedFrames, totalFrames: progress.totalFrames };
          wait.onProgress(last);
        }
      }
      await sleep(interval, wait.signal);
    }
  };
}

/**
 * Waits through a shared JobTracker, so many waits cost one progress request per tick. Rejects with
 * the tracker's error when it concerns this job or is fatal for all; transient errors keep it waiting.
 */
export function trackerWaiter(tracker: JobTracker): WaitForJob {
  return (jobId, until, wait = {}) =>
    new Promise<Job>((resolve, reject) => {
      const unsubscribe: (() => void)[] = [];
      const done = (result: { job: Job } | { error: unknown }) => {
        unsubscribe.forEach((off) => off());
        wait.signal?.removeEventListener('abort', onAbort);
        if ('job' in result) resolve(result.job);
        else reject(result.error);
      };
      const onAbort = () => done({ error: new AbortError() });
      if (wait.signal?.aborted) {
        onAbort();
        return;
      }
      wait.signal?.addEventListener('abort', onAbort, { once: true });
      unsubscribe.push(
        tracker.on('job', ({ job }) => {
          if (job.id !== jobId) return;
          wait.onJob?.(job);
          if (until(job)) done({ job });
        }),
        tracker.on('progress', ({ jobId: id, completedFrames, totalFrames }) => {
          if (id === jobId) wait.onProgress?.({ completedFrames, totalFrames });
        }),
        tracker.on('error', ({ error, jobId: id, fatal }) => {
          if (id === jobId || (id === undefined && fatal)) done({ error });
        }),
      );
      tracker.watch(jobId);
      tracker.start();
      void tracker.refresh(jobId);
    });
}
