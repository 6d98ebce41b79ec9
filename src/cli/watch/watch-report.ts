import { sceneNameOf } from '../../shared/api';
import { clockSummaryOf, renderTimingOf, type ClockSummary, type FramesSeen } from '../../shared/render';
import { type Job, isWorkingStatus } from '../../shared/api';
import { type DisplayStream, formatFrameProgress, formatTrackerRetry, LiveDisplay, shortId, truncate } from '../output';
import { safeText } from '../terminal';

/** What watch knows of one job: the job once read, its frame counts once reported. */
export interface WatchedJob {
  job: Job | null;
  frames: { completedFrames: number; totalFrames: number } | null;
  /** When this watch saw frames done (for the time left, as the app's queue works it out). */
  framesSeen: FramesSeen | null;
}

/** A watched job's frame counts: as last reported, else as its record says (all of them once it completed). */
function frameCounts(state: WatchedJob): { completedFrames: number; totalFrames: number } {
  if (!state.job) return state.frames ?? { completedFrames: 0, totalFrames: 0 };
  const timing = renderTimingOf(state.job);
  return state.frames && state.job.status !== 'completed' ? state.frames : { completedFrames: timing.completedFrames, totalFrames: timing.totalFrames || (state.frames?.totalFrames ?? 0) };
}

/** The render clock of a watched job now (null until the job was read): the app's rule, from `shared/render`. */
export function watchedClock(state: WatchedJob, now: number = Date.now()): ClockSummary | null {
  if (!state.job) return null;
  return clockSummaryOf({ ...renderTimingOf(state.job), ...frameCounts(state), framesSeen: state.framesSeen }, now);
}

/**
 * What `renderdrop watch` prints: one JSON object per line and event with `--json`, else one line per
 * job (redrawn in place on a terminal) and messages above them.
 */
export class WatchReport {
  readonly #out: DisplayStream;
  readonly #json: boolean;
  readonly #display: LiveDisplay;

  constructor(out: DisplayStream, json: boolean) {
    this.#out = out;
    this.#json = json;
    this.#display = new LiveDisplay(out, { live: Boolean(out.isTTY) && !json });
  }

  /** Nothing was active when watch started. */
  noActiveJobs(): void {
    if (this.#json) this.#emit({ type: 'idle', jobs: 0 });
    else this.#out.write('No active jobs.\n');
  }

  /** A job's status changed: its line is updated, or finished when the job no longer works. */
  status(jobId: string, job: Job, state: WatchedJob, previous: string | null): void {
    if (this.#json) this.#emit({ type: 'status', jobId, status: job.status, previous, scene: sceneNameOf(job), ...frameCounts(state), clock: watchedClock(state), previewUrl: job.previewUrl ?? null });
    else if (!isWorkingStatus(job.status)) this.#display.finish(jobId, this.#lineOf(jobId, state));
    else this.#display.update(jobId, this.#lineOf(jobId, state), { force: true });
  }

  /** A job's frame counts changed (the line of a job that ended stays as it was). */
  progress(jobId: string, state: WatchedJob): void {
    if (this.#json) this.#emit({ type: 'progress', jobId, ...state.frames, clock: watchedClock(state), previewUrl: state.job?.previewUrl ?? null });
    else if (!state.job || isWorkingStatus(state.job.status)) this.#display.update(jobId, this.#lineOf(jobId, state));
  }

  /** An error watch goes on after (the tracker tries again, or stops following that one job). */
  error(report: { jobId?: string; error: unknown; message: string; retryInMs: number; fatal: boolean }): void {
    const { jobId, message } = report;
    if (this.#json) this.#emit({ type: 'error', ...(jobId ? { jobId } : {}), message, retryInMs: report.retryInMs, fatal: report.fatal });
    else this.#display.print(jobId ? `${shortId(jobId)}: ${message}` : formatTrackerRetry(report.error, report.retryInMs));
  }

  /** An error that stops watch (printed as the command's error, so only `--json` reports it here). */
  fatalError(jobId: string | undefined, message: string): void {
    if (this.#json) this.#emit({ type: 'error', ...(jobId ? { jobId } : {}), message, fatal: true });
  }

  /** No watched job is active any more. */
  idle(): void {
    if (this.#json) this.#emit({ type: 'idle', jobs: 0 });
    else this.#display.print('No more active jobs.');
  }

  close(): void {
    this.#display.close();
  }

  #emit(event: Record<string, unknown>): void {
    this.#out.write(`${JSON.stringify(event)}\n`);
  }

  #lineOf(jobId: string, state: WatchedJob): string {
    const scene = state.job ? safeText(sceneNameOf(state.job) ?? '') : '';
    const status = state.job?.status ?? 'reading';
    const frames = state.frames && state.frames.totalFrames > 0 ? formatFrameProgress(state.frames.completedFrames, state.frames.totalFrames, { bar: this.#display.live }) : '';
    return [shortId(jobId), truncate(scene, 24).padEnd(24), status.padEnd(10), frames].join('  ').trimEnd();
  }
}
