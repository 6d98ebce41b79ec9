import type { ApiClient } from '../../core/api';
import type { SubmissionRecord } from '../../core/journal';
import type { JobTracker } from '../../core/tracking';
import { type Job, isTerminalStatus, isPastValidation } from '../../shared/api';
import type { JobPage, JobQuery, DownloadState, JobSummary } from '../../shared/contract';
import type { EstimateBasis } from '../../shared/render';
import type { ConnectionService } from '../profiles';
import { HiddenJobs, type HostEvents } from '../environment';
import { JobQueue } from './job-queue';
import { NO_DOWNLOAD, summaryFileName, toJobSummary } from './job-summary';
import { RenderHistory } from './render-history';
import type { SubmittedJobs } from './submitted-jobs';

const PAGE_SIZE = 100;

/** What the jobs of a profile work with. */
export interface ProfileJobsDeps {
  client: ApiClient;
  profileId: string;
  events: HostEvents;
  connection: ConnectionService;
  submitted: SubmittedJobs;
  tracker: JobTracker;
  /** The jobs removed from the list (default: a list in memory). */
  hidden?: HiddenJobs;
}

/**
 * The queue of one profile: every job listed once from the server (tried again with backoff while
 * the server cannot be reached, not when it rejects the key), then kept current by the tracker. Jobs
 * this app submitted carry their file name, download state and "Submit again".
 */
export class ProfileJobs {
  readonly queue: JobQueue;
  readonly #deps: ProfileJobsDeps;
  readonly #history = new RenderHistory();
  readonly #hidden: HiddenJobs;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #failures = 0;
  #closed = false;

  constructor(deps: ProfileJobsDeps) {
    this.#deps = deps;
    const hidden = deps.hidden ?? new HiddenJobs(null);
    this.#hidden = hidden;
    this.queue = new JobQueue(
      (summary) => deps.events.emit('job.updated', summary),
      (id) => hidden.has(deps.profileId, id),
    );
  }

  /** Removes jobs from the list on this computer (the farm keeps them) and tells the UI to list again. */
  async hide(jobIds: readonly string[]): Promise<number> {
    const added = await this.#hidden.hide(this.#deps.profileId, jobIds);
    if (added > 0) this.#deps.events.emit('jobs.reset', { profileId: this.#deps.profileId });
    return added;
  }

  /** One page of the queue. */
  page(query: JobQuery): JobPage {
    return this.queue.page(query, this.#deps.profileId);
  }

  /** Lists every job again from the server; the tracker then watches the unfinished ones. */
  async load(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    try {
      const all: Job[] = [];
      for (let page = 1; ; page++) {
        const list = await this.#deps.client.listJobs({ page, pageSize: PAGE_SIZE });
        all.push(...list.jobs);
        if (page >= list.pagination.totalPages || list.jobs.length === 0) break;
      }
      if (this.#closed) return;
      this.#history.clear();
      for (const job of all) this.#remember(job);
      this.queue.replaceAll(all.map((job) => this.summarise(job)));
      this.#failures = 0;
      this.#deps.connection.set({ state: 'ok' });
      this.#deps.events.emit('jobs.reset', { profileId: this.#deps.profileId });
      for (const job of all) if (!isTerminalStatus(job.status)) this.#deps.tracker.watch(job.id, job);
      this.#deps.tracker.start();
    } catch (error) {
      if (this.#closed) return;
      const retryInMs = Math.min(30_000, 1_000 * 2 ** this.#failures++);
      this.#deps.connection.failed(error, retryInMs);
      if (this.#deps.connection.state.state !== 'key-rejected') this.#timer = setTimeout(() => void this.load(), retryInMs);
    }
  }

  /** Adds or updates a job as the server sent it. */
  put(job: Job): JobSummary {
    this.#remember(job);
    this.queue.put(this.summarise(job));
    return this.queue.get(job.id)!;
  }

  /** Whether the queue holds a job. */
  has(jobId: string): boolean {
    return this.queue.get(jobId) !== null;
  }

  #remember(job: Job): void {
    if (job.status !== 'completed') return;
    const name = summaryFileName(job, this.#deps.submitted.get(job.id)?.file.name ?? null, this.queue.get(job.id));
    this.#history.record(job, name, this.queue.get(job.id)?.endedAt ?? null);
  }

  /** The earlier renders of a job's scene that estimates of it are made from; null when there are none. */
  estimateBasis(job: Job): EstimateBasis | null {
    const sceneName = summaryFileName(job, this.#deps.submitted.get(job.id)?.file.name ?? null, this.queue.get(job.id));
    const renders = this.#history.pastRenders(job.id, sceneName);
    return renders.length > 0 ? { sceneName, renders } : null;
  }

  /** What the queue shows of a job, with what this app knows of it (file, download). */
  summarise(job: Job, download?: DownloadState): JobSummary {
    const record = this.#deps.submitted.get(job.id);
    const previous = this.queue.get(job.id);
    const fileName = record?.file.name ?? null;
    const beforeRender = !isPastValidation(job.status) || job.status === 'validated';
    return toJobSummary(job, {
      fileName,
      estimate: beforeRender ? this.#history.estimate(job, summaryFileName(job, fileName, previous)) : null,
      previous,
      download: download ?? previous?.download ?? (record ? recordDownload(record) : NO_DOWNLOAD),
      canSubmitAgain: record !== null,
      packing: record?.packing ?? null,
    });
  }

  /** Stops trying again. */
  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
  }
}

function recordDownload(record: SubmissionRecord): DownloadState {
  if (record.step === 'downloaded' && record.downloadedTo) return { ...NO_DOWNLOAD, state: 'done', dir: record.downloadedTo };
  if (record.download.wanted) return { ...NO_DOWNLOAD, state: 'queued', dir: record.download.dir };
  return NO_DOWNLOAD;
}
