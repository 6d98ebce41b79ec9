import { type Job, type ProgressRecord, isTerminalStatus, isWorkingStatus, type JobStatus } from '../../shared/api';
import type { CallOptions } from '../api';
import { AuthError, ContractError, InvalidStateError, NotFoundError, RateLimitedError } from '../errors';
import { type Clock, runPool, systemClock, systemTimers, type Timers, TypedEmitter } from '../util';

/** The part of the API client the tracker uses. */
export interface TrackerSource {
  getAllProgress(options?: CallOptions): Promise<ProgressRecord[]>;
  getJob(jobId: string, options?: CallOptions): Promise<Job>;
}

/** Frame progress of one job. */
export interface FrameProgress {
  completedFrames: number;
  totalFrames: number;
}

/** Everything the tracker tells its listeners. */
export interface TrackerEvents extends Record<string, unknown> {
  /** A job's status changed (or became known); `previous` is null the first time. */
  status: { jobId: string; job: Job; previous: JobStatus | null };
  /** A job's frame counts changed. */
  progress: { jobId: string } & FrameProgress;
  /** A job was read from the server (any change or none). */
  job: { job: Job };
  completed: { job: Job };
  failed: { job: Job };
  canceled: { job: Job };
  /**
   * A tick failed; the tracker slows down and tries again in `retryInMs`. `jobId` when one job is
   * concerned. `fatal` when trying again cannot help (key rejected, server not speaking the API, request
   * refused, nothing found): for that job with `jobId`, else for every job, so waiters should give up.
   */
  error: { error: unknown; retryInMs: number; jobId?: string; fatal: boolean };
}

/** Rhythm of the tracker. */
export interface TrackerOptions {
  client: TrackerSource;
  clock?: Clock;
  timers?: Timers;
  /** Tick interval while a job is active (default 1 s). */
  activeIntervalMs?: number;
  /** Longest tick interval when nothing is active (default 15 s). */
  idleIntervalMs?: number;
  /** Longest backoff after errors (default 60 s); a longer wait the server asks for (Retry-After) is honoured. */
  maxErrorBackoffMs?: number;
  /** A job not read for this long is read again (default 2 min). */
  staleAfterMs?: number;
  /** Stale jobs refreshed per tick at most, so periodic refreshes never burst (default 1). */
  staleRefreshesPerTick?: number;
  /** Job reads in parallel within one tick (default 4). */
  detailConcurrency?: number;
  /** How often a job waiting for its turn (`booting`) is read, for when it starts or why it cannot (default 5 s). */
  waitingReadMs?: number;
}

/** What the tracker knows about one watched job. */
export interface TrackedJob {
  jobId: string;
  job: Job | null;
  progress: FrameProgress | null;
  inProgressList: boolean;
}

interface Entry extends TrackedJob {
  lastReadAt: number;
  reachedTotal: boolean;
  mustRead: boolean;
}

/**
 * Watches many jobs at once. Each tick asks `GET /jobs/progress` once for everything, then reads
 * `GET /jobs/{id}` only for jobs whose state may have changed (appeared in or left the progress list,
 * reached their total, frames done while the job last read was not yet `rendering`, active but missing
 * from the list, or not read for a long while, a few per tick).
 * Ticks fast while something is active and back off when idle or when the server pushes back.
 */
export class JobTracker extends TypedEmitter<TrackerEvents> {
  readonly #client: TrackerSource;
  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #activeMs: number;
  readonly #idleMs: number;
  readonly #maxErrorMs: number;
  readonly #staleMs: number;
  readonly #stalePerTick: number;
  readonly #concurrency: number;
  readonly #waitingMs: number;
  readonly #jobs = new Map<string, Entry>();
  #running = false;
  #timer: unknown = null;
  #chain: Promise<void> = Promise.resolve();
  #interval: number;
  #errorStreak = 0;
  #abort = new AbortController();

  constructor(options: TrackerOptions) {
    super();
    this.#client = options.client;
    this.#clock = options.clock ?? systemClock;
    this.#timers = options.timers ?? systemTimers;
    this.#activeMs = options.activeIntervalMs ?? 1_000;
    this.#idleMs = options.idleIntervalMs ?? 15_000;
    this.#maxErrorMs = options.maxErrorBackoffMs ?? 60_000;
    this.#staleMs = options.staleAfterMs ?? 120_000;
    this.#stalePerTick = options.staleRefreshesPerTick ?? 1;
    this.#concurrency = options.detailConcurrency ?? 4;
    this.#waitingMs = options.waitingReadMs ?? 5_000;
    this.#interval = this.#activeMs;
  }

  /** Interval before the next scheduled tick (for display and tests). */
  get currentIntervalMs(): number {
    return this.#interval;
  }

  /** Whether ticks are scheduled. */
  get running(): boolean {
    return this.#running;
  }

  /** Starts watching a job (a known job payload saves a read). Ticks soon. */
  watch(jobId: string, job?: Job): void {
    const existing = this.#jobs.get(jobId);
    if (existing) {
      existing.mustRead = true;
    } else {
      this.#jobs.set(jobId, {
        jobId,
        job: job ?? null,
        progress: null,
        inProgressList: false,
        lastReadAt: job ? this.#clock.now() : 0,
        reachedTotal: false,
        mustRead: job === undefined,
      });
    }
    this.#interval = this.#activeMs;
    if (this.#running) this.#schedule(0);
  }

  /** Whether a job is watched. */
  isWatching(jobId: string): boolean {
    return this.#jobs.has(jobId);
  }

  /** Stops watching a job. */
  unwatch(jobId: string): void {
    this.#jobs.delete(jobId);
  }

  /** The watched jobs. */
  list(): TrackedJob[] {
    return [...this.#jobs.values()].map(({ jobId, job, progress, inProgressList }) => ({ jobId, job, progress, inProgressList }));
  }

  /** Begins (or resumes) ticking. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#abort = new AbortController();
    this.#schedule(0);
  }

  /** Stops ticking; watched jobs are kept. */
  pause(): void {
    this.#running = false;
    this.#clearTimer();
  }

  /** Stops ticking, aborts a request in flight and forgets every job. */
  stop(): void {
    this.pause();
    this.#abort.abort();
    this.#jobs.clear();
  }

  /** Ticks now (after a tick in flight); with `jobId`, that job is read whatever the progress says. */
  refresh(jobId?: string): Promise<void> {
    if (jobId !== undefined) {
      const entry = this.#jobs.get(jobId);
      if (entry) entry.mustRead = true;
    }
    this.#clearTimer();
    return this.#enqueue();
  }

  #enqueue(): Promise<void> {
    this.#chain = this.#chain.then(() => this.#tick());
    return this.#chain;
  }

  #schedule(delayMs: number) {
    this.#clearTimer();
    if (!this.#running || this.#jobs.size === 0) return;
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = null;
      void this.#enqueue();
    }, delayMs);
  }

  #clearTimer() {
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #tick(): Promise<void> {
    if (this.#jobs.size === 0) return;
    const call: CallOptions = { signal: this.#abort.signal, retry: { rateLimitRetries: 0, transientRetries: 0 } };
    let records: ProgressRecord[];
    try {
      records = await this.#client.getAllProgress(call);
    } catch (error) {
      if (this.#abort.signal.aborted) return;
      this.#failed(error);
      return;
    }
    const now = this.#clock.now();
    const byId = new Map(records.map((r) => [r.jobId, r]));
    const toRead: Entry[] = [];
    const stale: Entry[] = [];
    for (const entry of this.#jobs.values()) {
      const record = byId.get(entry.jobId);
      const inList = record !== undefined;
      let read = entry.mustRead || entry.job === null || inList !== entry.inProgressList;
      if (!inList && entry.job !== null && isWorkingStatus(entry.job.status)) read = true;
      if (record) {
        const reached = record.totalFrames > 0 && record.completedFrames >= record.totalFrames;
        if (reached && !entry.reachedTotal) read = true;
        entry.reachedTotal = reached;
        const previous = entry.progress;
        if (!previous || previous.completedFrames !== record.completedFrames || previous.totalFrames !== record.totalFrames) {
          entry.progress = { completedFrames: record.completedFrames, totalFrames: record.totalFrames };
          this.emit('progress', { jobId: entry.jobId, ...entry.progress });
          if (record.completedFrames > 0 && entry.job !== null && entry.job.status !== 'rendering') read = true;
        }
      }
      entry.inProgressList = inList;
      // A job waiting for its turn is read every few seconds: when it starts, or why it cannot, changes without a frame.
      if (!read && entry.job?.status === 'booting' && now - entry.lastReadAt >= this.#waitingMs) read = true;
      if (read) toRead.push(entry);
      else if (now - entry.lastReadAt >= this.#staleMs) stale.push(entry);
    }
    stale.sort((a, b) => a.lastReadAt - b.lastReadAt);
    toRead.push(...stale.slice(0, this.#stalePerTick));
    let readError: unknown = null;
    await runPool(toRead, this.#concurrency, async (entry) => {
      try {
        const job = await this.#client.getJob(entry.jobId, call);
        this.#apply(entry, job);
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        if (error instanceof NotFoundError) {
          this.#jobs.delete(entry.jobId);
          this.emit('error', { error, retryInMs: 0, jobId: entry.jobId, fatal: true });
          return;
        }
        readError ??= error;
      }
    });
    if (readError !== null) {
      this.#failed(readError);
      return;
    }
    this.#errorStreak = 0;
    const active = [...this.#jobs.values()].some((e) => e.inProgressList || e.mustRead || e.job === null || isWorkingStatus(e.job.status));
    this.#interval = active ? this.#activeMs : Math.min(this.#idleMs, Math.max(this.#activeMs, this.#interval) * 2);
    this.#schedule(this.#interval);
  }

  #apply(entry: Entry, job: Job) {
    entry.mustRead = false;
    entry.lastReadAt = this.#clock.now();
    const previous = entry.job?.status ?? null;
    entry.job = job;
    this.emit('job', { job });
    if (previous !== job.status) this.emit('status', { jobId: entry.jobId, job, previous });
    if (isTerminalStatus(job.status)) {
      this.#jobs.delete(entry.jobId);
      if (job.status === 'completed') this.emit('completed', { job });
      else if (job.status === 'failed') this.emit('failed', { job });
      else this.emit('canceled', { job });
    }
  }

  #failed(error: unknown) {
    this.#errorStreak++;
    const asked = error instanceof RateLimitedError ? (error.retryAfterMs ?? 0) : 0;
    const backoff = Math.min(this.#maxErrorMs, this.#activeMs * 2 ** this.#errorStreak);
    this.#interval = Math.max(asked, backoff);
    this.emit('error', { error, retryInMs: this.#interval, fatal: isFatalTrackingError(error) });
    this.#schedule(this.#interval);
  }
}

/**
 * Whether a failed tick will fail the same way however long the tracker waits: the key is rejected,
 * the server does not speak the API, refuses the request or does not know what was asked. Network
 * failures, 5xx and 429 are not fatal.
 */
export function isFatalTrackingError(error: unknown): boolean {
  return error instanceof AuthError || error instanceof ContractError || error instanceof InvalidStateError || error instanceof NotFoundError;
}
