import { AbortError, ContractError, NotFoundError, serializeError } from '../../core/errors';
import type { JobTracker } from '../../core/tracking';
import { type Job, isWorkingStatus } from '../../shared/api';
import { framesSeenAfter } from '../../shared/render';
import type { WatchedJob, WatchReport } from './watch-report';

/** What following the watched jobs needs. */
export interface FollowDeps {
  tracker: JobTracker;
  /** The jobs followed, by id (a job the tracker gives up on leaves it). */
  watched: Map<string, WatchedJob>;
  report: WatchReport;
  /** Stops watching (Ctrl-C); the jobs go on. */
  signal: AbortSignal;
}

/**
 * Starts the tracker and reports its events until no watched job is working any more; answers the
 * jobs that ended (completed, failed or canceled). Rejects on an error no retry can fix, or when
 * interrupted.
 */
export function followUntilIdle({ tracker, watched, report, signal }: FollowDeps): Promise<Job[]> {
  const finished: Job[] = [];
  let settled = false;
  return new Promise<Job[]>((resolve, reject) => {
    const stop = (error: unknown) => {
      settled = true;
      reject(error);
    };
    const checkIdle = () =>
      setImmediate(() => {
        if (settled) return;
        const left = tracker.list().filter((entry) => entry.job === null || isWorkingStatus(entry.job.status));
        if (left.length > 0) return;
        settled = true;
        resolve(finished);
      });
    tracker.on('status', ({ jobId, job, previous }) => {
      const state = watched.get(jobId);
      if (!state) return;
      state.job = job;
      report.status(jobId, job, state, previous);
      if (job.status === 'completed' || job.status === 'failed' || job.status === 'canceled') finished.push(job);
      checkIdle();
    });
    tracker.on('job', ({ job }) => {
      const state = watched.get(job.id);
      if (state) state.job = job;
    });
    tracker.on('progress', ({ jobId, completedFrames, totalFrames }) => {
      const state = watched.get(jobId);
      if (!state) return;
      state.framesSeen = framesSeenAfter(state.framesSeen, state.frames?.completedFrames ?? 0, completedFrames, Date.now());
      state.frames = { completedFrames, totalFrames };
      report.progress(jobId, state);
    });
    tracker.on('error', ({ error: reported, retryInMs, jobId, fatal }) => {
      const error = jobId !== undefined && reported instanceof NotFoundError ? listedButUnknown(jobId) : reported;
      const message = serializeError(error).message;
      if ((jobId === undefined && fatal) || error instanceof ContractError) {
        report.fatalError(jobId, message);
        stop(error);
        return;
      }
      report.error({ ...(jobId ? { jobId } : {}), error, message, retryInMs, fatal });
      if (jobId) {
        watched.delete(jobId);
        checkIdle();
      }
    });
    signal.addEventListener('abort', () => stop(new AbortError('Stopped watching; the jobs go on.')), { once: true });
    tracker.start();
  });
}

/**
 * Every job watch follows came from the server's list of active jobs, so a job the server then says
 * it does not know is a contract break, not a job that went away.
 */
function listedButUnknown(jobId: string): ContractError {
  return new ContractError('GET /jobs/progress', 'jobId', `it lists job ${jobId} as active, and GET /jobs/{id} answers 404 for it`);
}
