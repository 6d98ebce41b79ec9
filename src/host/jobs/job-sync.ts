import type { CallOptions } from '../../core/api';
import type { JobTracker } from '../../core/tracking';
import { systemClock, systemTimers, type Clock, type Timers } from '../../core/util';
import { type Job, type JobList, isActiveStatus, isTerminalStatus } from '../../shared/api';
import type { SyncView } from '../../shared/contract';
import type { HostEvents } from '../environment';
import type { ProfileJobs } from './profile-jobs';

/** What the list sync reads from the server. */
export interface JobSyncSource {
  listJobs(query: { page?: number; pageSize?: number }, options?: CallOptions): Promise<JobList>;
}

/** What the list sync works with. */
export interface JobSyncDeps {
  client: JobSyncSource;
  jobs: ProfileJobs;
  tracker: Pick<JobTracker, 'watch' | 'isWatching' | 'start'>;
  events: HostEvents;
  clock?: Clock;
  timers?: Timers;
  /** Interval while a job of the queue is active (default 5 s). */
  activeIntervalMs?: number;
  /** Interval when nothing is active (default 8 s). */
  idleIntervalMs?: number;
  /** Jobs read per list page (default 20, the API's default page). */
  pageSize?: number;
  /** A sync asked for sooner than this after the last one waits for it instead (default 1 s). */
  minGapMs?: number;
}

/** Pages read at most in one sync, when every job of each page is new (a burst from another machine). */
const MAX_PAGES = 5;

/**
 * Keeps the queue true to the server: the first page of `GET /jobs` (newest first) on an adaptive
 * interval, fast while something is active and slow when idle, and at once when asked (the window came
 * back into view, the refresh button). New jobs join the queue and, when unfinished, the tracker; jobs
 * the page shows changed are updated. Further pages are read only while every job on a page is new.
 */
export class JobSync {
  readonly #deps: JobSyncDeps;
  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #activeMs: number;
  readonly #idleMs: number;
  readonly #pageSize: number;
  readonly #minGapMs: number;
  #timer: unknown = null;
  #running: Promise<void> | null = null;
  #lastAt: number | null = null;
  #lastError: string | null = null;
  #failures = 0;
  #closed = false;
  #abort = new AbortController();

  constructor(deps: JobSyncDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? systemClock;
    this.#timers = deps.timers ?? systemTimers;
    this.#activeMs = deps.activeIntervalMs ?? 5_000;
    this.#idleMs = deps.idleIntervalMs ?? 8_000;
    this.#pageSize = deps.pageSize ?? 20;
    this.#minGapMs = deps.minGapMs ?? 1_000;
  }

  /** When the queue was last checked against the server, and how often it is. */
  view(): SyncView {
    return {
      lastSyncAt: this.#lastAt === null ? null : new Date(this.#lastAt).toISOString(),
      syncing: this.#running !== null,
      nextInMs: this.#interval(),
      error: this.#lastError,
    };
  }

  /** Starts the rhythm (the first sync after one interval: the list was just loaded). */
  start(): void {
    this.#lastAt = this.#clock.now();
    this.#schedule(this.#interval());
  }

  /** Syncs now, unless one runs (then waits for it) or one ended less than a second ago. */
  now(): Promise<SyncView> {
    if (this.#closed) return Promise.resolve(this.view());
    if (this.#running) return this.#running.then(() => this.view());
    if (this.#lastAt !== null && this.#lastError === null && this.#clock.now() - this.#lastAt < this.#minGapMs) return Promise.resolve(this.view());
    return this.#run().then(() => this.view());
  }

  /** Stops syncing. */
  close(): void {
    this.#closed = true;
    this.#abort.abort();
    this.#clearTimer();
  }

  #interval(): number {
    if (this.#failures > 0) return Math.min(60_000, this.#activeMs * 2 ** this.#failures);
    return this.#anyActive() ? this.#activeMs : this.#idleMs;
  }

  #anyActive(): boolean {
    return this.#deps.jobs.queue.some((job) => isActiveStatus(job.status));
  }

  #schedule(delayMs: number): void {
    this.#clearTimer();
    if (this.#closed) return;
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = null;
      void this.#run();
    }, delayMs);
  }

  #clearTimer(): void {
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #run(): Promise<void> {
    this.#clearTimer();
    this.#running = this.#attempt().finally(() => {
      this.#running = null;
      if (this.#closed) return;
      this.#announce();
      this.#schedule(this.#interval());
    });
    this.#announce();
    return this.#running;
  }

  async #attempt(): Promise<void> {
    await Promise.resolve();
    try {
      await this.#sync();
      this.#lastAt = this.#clock.now();
      this.#lastError = null;
      this.#failures = 0;
    } catch {
      if (this.#closed) return;
      this.#failures++;
      this.#lastError = 'The farm could not be reached; the queue may be out of date.';
    }
  }

  async #sync(): Promise<void> {
    const call: CallOptions = { signal: this.#abort.signal, retry: { rateLimitRetries: 0, transientRetries: 0 } };
    let added = false;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const list = await this.#deps.client.listJobs({ page, pageSize: this.#pageSize }, call);
      if (this.#closed) return;
      let allNew = list.jobs.length > 0;
      for (const job of list.jobs) {
        if (this.#deps.jobs.has(job.id)) allNew = false;
        if (this.#take(job)) added = true;
      }
      if (!allNew || page >= list.pagination.totalPages) break;
    }
    if (added) this.#deps.tracker.start();
  }

  /** Puts a job the list showed into the queue (an event only when it changed); true when the tracker starts watching it. */
  #take(job: Job): boolean {
    this.#deps.jobs.put(job);
    if (isTerminalStatus(job.status) || this.#deps.tracker.isWatching(job.id)) return false;
    this.#deps.tracker.watch(job.id, job);
    return true;
  }

  #announce(): void {
    this.#deps.events.emit('jobs.synced', this.view());
  }
}
