import { randomUUID } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../core/api/api-client';
import { planOutputs } from '../core/download/output-plan';
import { downloadJobOutputs, type DownloadProgress } from '../core/download/download-job';
import { jobFolderName } from '../core/download/job-folder';
import { resolveInside } from '../core/download/safe-path';
import { AbortError, ConfigError, InvalidStateError, isAbort, NotFoundError, serializeError, SubmissionBusyError } from '../core/errors';
import type { SubmissionJournal } from '../core/journal/submission-journal';
import { isFinished, type SubmissionRecord } from '../core/journal/submission-record';
import { recordSubmission, Submission, type RenderProposal } from '../core/submit/submission';
import { trackerWaiter } from '../core/submit/wait-for-job';
import { JobTracker } from '../core/tracking/tracker';
import type { Clock } from '../core/util/clock';
import { isTerminalStatus, type Job } from '../shared/api/job';
import type { RenderConfig } from '../shared/api/render-config';
import type { Profile } from '../shared/settings';
import type { ConnectionState } from '../shared/contract/app-state';
import type { JobQuery, JobPage } from '../shared/contract/calls';
import { diffConfigs } from '../shared/contract/config-diff';
import type { DownloadState, JobDetail, JobSummary, OutputFileView } from '../shared/contract/job-views';
import type { ReviewSheet, SubmissionView, SubmitFileResult } from '../shared/contract/submission-views';
import type { AppPreferences } from './app-preferences';
import { connectionStateFor, sameConnectionState } from './connection-state';
import type { HostEvents } from './host-events';
import { JobQueue } from './job-queue';
import { NO_DOWNLOAD, toJobSummary } from './job-summary';
import { timelineOf } from '../shared/api/job-extras';
import { fetchPreview } from './fetch-preview';
import { detectedConfig, fitToAnalysis, readAnalysis } from './review-defaults';
import { toSubmissionView, type SubmissionState } from './submission-view';

/** What a session needs from the host. */
export interface SessionDeps {
  profile: Profile;
  /** Null when the profile cannot be used (no key); `blocked` says why. */
  client: ApiClient | null;
  blocked: ConnectionState | null;
  journal: SubmissionJournal;
  prefs: AppPreferences;
  events: HostEvents;
  clock: Clock;
  downloadRoot: () => string;
  autoDownload: () => boolean;
  notifications: () => boolean;
  /** Whether a path is a staged upload (browser mode) rather than the artist's own file. */
  isStaged: (path: string) => boolean;
  /** Removes a staged upload once no journal record refers to it. */
  releaseFile: (path: string) => Promise<void>;
  tracker?: { activeIntervalMs?: number; idleIntervalMs?: number };
}

interface Running extends SubmissionState {
  submission: Submission | null;
  abort: AbortController;
  review: { proposal: RenderProposal; resolve: (answer: boolean | RenderConfig) => void; reject: (error: unknown) => void } | null;
  /** Render straight away with the recorded settings (submit again). */
  autoStart: boolean;
}

const PAGE_SIZE = 100;
const PREVIEW_LIMIT = 8 * 1024 * 1024;

/**
 * Everything bound to the active profile: its jobs (listed once, then kept current by one JobTracker),
 * the submissions going to it (run from the journal, paused at review until the artist starts the
 * render), downloads, connection state and notifications. A profile switch closes it and opens another.
 */
export class ProfileSession {
  readonly profile: Profile;
  readonly queue: JobQueue;
  #connection: ConnectionState;
  readonly #deps: SessionDeps;
  readonly #tracker: JobTracker | null;
  readonly #submissions = new Map<string, Running>();
  /** Journal record of each job this app submitted. */
  readonly #byJob = new Map<string, SubmissionRecord>();
  readonly #downloads = new Map<string, AbortController>();
  #closed = false;
  #loadTimer: ReturnType<typeof setTimeout> | null = null;
  #loadFailures = 0;
  #loaded: Promise<void> = Promise.resolve();

  constructor(deps: SessionDeps) {
    this.#deps = deps;
    this.profile = deps.profile;
    this.#connection = deps.blocked ?? { state: 'starting', message: 'Connecting…' };
    this.queue = new JobQueue((summary) => deps.events.emit('job.updated', summary));
    this.#tracker = deps.client ? this.#makeTracker(deps.client) : null;
  }

  get connection(): ConnectionState {
    return this.#connection;
  }

  /** Loads the journal and the job list, resumes unfinished submissions. */
  async start(): Promise<void> {
    const records = (await this.#deps.journal.list()).filter((r) => r.profileId === this.profile.id);
    for (const record of records) if (record.jobId) this.#byJob.set(record.jobId, record);
    if (!this.#deps.client) return;
    this.#loaded = this.#loadJobs();
    for (const record of records) {
      if (!isFinished(record)) this.#launch(this.#state(record, false), { leaveIfBusy: true });
    }
  }

  /** Resolves once the first job list load finished (or failed). */
  whenLoaded(): Promise<void> {
    return this.#loaded;
  }

  /** Stops every run, download and timer; journal records stay resumable. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#loadTimer) clearTimeout(this.#loadTimer);
    this.#tracker?.stop();
    for (const running of this.#submissions.values()) {
      running.abort.abort();
      running.review?.reject(new AbortError());
    }
    for (const abort of this.#downloads.values()) abort.abort();
  }

  // ---- queue ----

  /** One page of the queue. */
  jobs(query: JobQuery): JobPage {
    return this.queue.page(query, this.profile.id);
  }

  /** Lists every job again from the server. */
  async reload(): Promise<JobPage> {
    await this.#loadJobs();
    return this.jobs({});
  }

  async #loadJobs(): Promise<void> {
    const client = this.#requireClient();
    if (this.#loadTimer) clearTimeout(this.#loadTimer);
    try {
      const all: Job[] = [];
      for (let page = 1; ; page++) {
        const list = await client.listJobs({ page, pageSize: PAGE_SIZE });
        all.push(...list.jobs);
        if (page >= list.pagination.totalPages || list.jobs.length === 0) break;
      }
      if (this.#closed) return;
      this.queue.replaceAll(all.map((job) => this.#summarise(job)));
      this.#loadFailures = 0;
      this.#setConnection({ state: 'ok' });
      this.#deps.events.emit('jobs.reset', { profileId: this.profile.id });
      for (const job of all) if (!isTerminalStatus(job.status)) this.#tracker?.watch(job.id, job);
      this.#tracker?.start();
    } catch (error) {
      if (this.#closed) return;
      const retryInMs = Math.min(30_000, 1_000 * 2 ** this.#loadFailures++);
      this.#setConnection(connectionStateFor(error, retryInMs, new Date(this.#deps.clock.now())));
      if (this.#connection.state !== 'key-rejected') {
        this.#loadTimer = setTimeout(() => void this.#loadJobs(), retryInMs);
      }
    }
  }

  #summarise(job: Job, download?: DownloadState): JobSummary {
    const record = this.#byJob.get(job.id) ?? null;
    const previous = this.queue.get(job.id);
    return toJobSummary(job, {
      fileName: record?.file.name ?? null,
      previous,
      download: download ?? previous?.download ?? (record ? this.#recordDownload(record) : NO_DOWNLOAD),
      canSubmitAgain: record !== null,
    });
  }

  #recordDownload(record: SubmissionRecord): DownloadState {
    if (record.step === 'downloaded' && record.downloadedTo) return { ...NO_DOWNLOAD, state: 'done', dir: record.downloadedTo };
    if (record.download.wanted) return { ...NO_DOWNLOAD, state: 'queued', dir: record.download.dir };
    return NO_DOWNLOAD;
  }

  #makeTracker(client: ApiClient): JobTracker {
    const tracker = new JobTracker({
      client: {
        getAllProgress: async (options) => {
          const records = await client.getAllProgress(options);
          if (this.#connection.state !== 'ok' && this.#connection.state !== 'starting') this.#setConnection({ state: 'ok' });
          return records;
        },
        getJob: (id, options) => client.getJob(id, options),
      },
      clock: this.#deps.clock,
      activeIntervalMs: this.#deps.tracker?.activeIntervalMs ?? 1_000,
      idleIntervalMs: this.#deps.tracker?.idleIntervalMs ?? 15_000,
    });
    tracker.on('job', ({ job }) => this.queue.put(this.#summarise(job)));
    tracker.on('progress', ({ jobId, completedFrames, totalFrames }) => {
      this.queue.patch(jobId, (s) => ({ ...s, completedFrames, totalFrames }));
    });
    tracker.on('completed', ({ job }) => {
      const summary = this.queue.get(job.id);
      this.#notify('success', 'Render complete', `${summary?.fileName ?? job.id}: ${summary?.totalFrames ?? 0} frame(s) rendered.`, job.id);
      const submitted = [...this.#submissions.values()].some((r) => r.record.jobId === job.id && r.running);
      if (!submitted && this.#deps.autoDownload()) void this.download(job.id).catch(() => undefined);
    });
    tracker.on('failed', ({ job }) => {
      const summary = this.queue.get(job.id);
      this.#notify('error', 'Render failed', `${summary?.fileName ?? job.id}: ${summary?.failure ?? 'no reason given'}`, job.id);
    });
    tracker.on('error', ({ error, retryInMs, jobId }) => {
      if (jobId !== undefined || this.#closed) return;
      this.#setConnection(connectionStateFor(error, retryInMs, new Date(this.#deps.clock.now())));
    });
    return tracker;
  }

  /** Reports an API retry (rate limit, network) as the connection state. */
  onRetry(reason: 'rate-limited' | 'server-error' | 'network', delayMs: number): void {
    const now = new Date(this.#deps.clock.now()).toISOString();
    const retryInSeconds = Math.max(1, Math.ceil(delayMs / 1000));
    if (reason === 'rate-limited') {
      this.#setConnection({ state: 'rate-limited', message: 'The server asked to slow down; Renderdrop is waiting before asking again.', retryInSeconds, since: now });
    } else {
      this.#setConnection({ state: 'unreachable', message: 'The server is not answering; Renderdrop keeps trying.', retryInSeconds, since: now });
    }
  }

  #setConnection(next: ConnectionState) {
    if (this.#deps.blocked && next.state === 'ok') next = this.#deps.blocked;
    if (sameConnectionState(this.#connection, next)) return;
    this.#connection = next;
    this.#deps.events.emit('connection.changed', next);
  }

  #notify(level: 'info' | 'success' | 'error', title: string, message: string, jobId: string | null) {
    if (!this.#deps.notifications()) return;
    this.#deps.events.emit('notification', { id: randomUUID(), level, title, message, jobId, at: new Date(this.#deps.clock.now()).toISOString() });
  }

  // ---- submissions ----

  /** Records and starts one submission per file (preflight failures are answered per file). */
  async submit(files: { path: string; name: string }[], renderConfig?: RenderConfig): Promise<SubmitFileResult[]> {
    const client = this.#requireClient();
    const results: SubmitFileResult[] = [];
    for (const file of files) {
      try {
        const record = await recordSubmission(this.#deps.journal, {
          filePath: file.path,
          baseUrl: client.baseUrl,
          profileId: this.profile.id,
          renderConfig: renderConfig ?? null,
          download: { wanted: this.#deps.autoDownload(), dir: null, root: this.#deps.downloadRoot() },
        });
        const state = this.#state(record, renderConfig !== undefined);
        this.#launch(state);
        results.push({ ok: true, name: file.name, submissionId: record.id });
      } catch (error) {
        results.push({ ok: false, name: file.name, error: serializeError(error) });
      }
    }
    return results;
  }

  /** Submissions of this session that are not done and dismissed. */
  submissions(): SubmissionView[] {
    return [...this.#submissions.values()].map(toSubmissionView);
  }

  /** What validation detected and the settings to start from. */
  review(submissionId: string): ReviewSheet {
    const running = this.#requireSubmission(submissionId);
    if (!running.review) throw new InvalidStateError(`${running.record.file.name} is not waiting for review (it is ${toSubmissionView(running).phase}).`);
    const { proposal } = running.review;
    const analysis = readAnalysis(proposal.analysis);
    const recorded = running.record.renderConfig as RenderConfig | null;
    const remembered = recorded ?? this.#deps.prefs.lastSettings(running.record.file.name);
    return {
      submissionId,
      jobId: proposal.job.id,
      fileName: running.record.file.name,
      analysis,
      warnings: analysis?.warnings ?? [],
      defaults: remembered ? fitToAnalysis(remembered, analysis) : detectedConfig(analysis),
      fromLastTime: recorded === null && remembered !== null,
    };
  }

  /** Starts the render of a reviewed submission with the artist's settings, and remembers them. */
  async startRender(submissionId: string, config: RenderConfig): Promise<SubmissionView> {
    const running = this.#requireSubmission(submissionId);
    if (!running.review) throw new InvalidStateError(`${running.record.file.name} is not waiting for review.`);
    await this.#deps.prefs.rememberSettings(running.record.file.name, config);
    const { resolve } = running.review;
    running.review = null;
    running.awaitingReview = false;
    resolve(config);
    this.#emitSubmission(running);
    return toSubmissionView(running);
  }

  /** Drops a submission at review: nothing is rendered and its job is canceled on the server. */
  async discard(submissionId: string): Promise<SubmissionView> {
    const running = this.#requireSubmission(submissionId);
    if (running.review) {
      const { resolve, proposal } = running.review;
      running.review = null;
      running.awaitingReview = false;
      resolve(false);
      await this.#deps.client?.cancelJob(proposal.job.id).catch(() => null);
    } else {
      running.abort.abort();
    }
    this.#emitSubmission(running);
    return toSubmissionView(running);
  }

  /** Runs a stopped submission again from its last recorded step. */
  retry(submissionId: string): SubmissionView {
    const running = this.#requireSubmission(submissionId);
    if (running.running) return toSubmissionView(running);
    if (running.record.ending !== null) throw new InvalidStateError(`${running.record.file.name} has ended; submit it again instead.`);
    running.error = null;
    running.abort = new AbortController();
    this.#launch(running);
    return toSubmissionView(running);
  }

  /** Forgets a submission that is not running (its journal record stays while work is left). */
  async dismiss(submissionId: string): Promise<boolean> {
    const running = this.#submissions.get(submissionId);
    if (!running) return false;
    if (running.running && running.record.ending === null && !running.review) throw new InvalidStateError(`${running.record.file.name} is still being sent; wait or discard it.`);
    running.abort.abort();
    running.review?.reject(new AbortError());
    this.#submissions.delete(submissionId);
    if (running.record.ending !== null || running.record.jobId === null) {
      await this.#deps.journal.remove(submissionId);
      await this.#deps.releaseFile(running.record.file.path);
    }
    this.#deps.events.emit('submission.removed', { id: submissionId });
    return true;
  }

  /** Submits a job's source file again, rendering straight away with the settings it was rendered with. */
  async submitAgain(jobId: string): Promise<SubmitFileResult> {
    const record = this.#byJob.get(jobId);
    if (!record) throw new InvalidStateError('This job was not submitted from this app, so its scene file is unknown. Drop the file again.');
    const client = this.#requireClient();
    if (this.#deps.isStaged(record.file.path) && !(await stat(record.file.path).catch(() => null))?.isFile()) {
      throw new InvalidStateError(`The uploaded copy of ${record.file.name} has been cleaned up since it was sent. Drop the file again to send it once more.`);
    }
    const job = await client.getJob(jobId);
    const config = (job.requestedConfig as RenderConfig | null) ?? (record.renderConfig as RenderConfig | null) ?? undefined;
    const [result] = await this.submit([{ path: record.file.path, name: record.file.name }], config ?? undefined);
    return result!;
  }

  #state(record: SubmissionRecord, autoStart: boolean): Running {
    const running: Running = { record, awaitingReview: false, error: null, running: false, submission: null, abort: new AbortController(), review: null, autoStart };
    this.#submissions.set(record.id, running);
    return running;
  }

  /** Runs a submission; with `leaveIfBusy`, one another Renderdrop is continuing is dropped without a word. */
  #launch(running: Running, options: { leaveIfBusy?: boolean } = {}) {
    const client = this.#requireClient();
    const tracker = this.#tracker!;
    const submission = new Submission({
      client,
      journal: this.#deps.journal,
      record: running.record,
      ...(running.autoStart ? {} : { confirm: (proposal: RenderProposal) => this.#awaitReview(running, proposal) }),
      waitForJob: trackerWaiter(tracker),
      downloadRoot: running.record.download.root ?? this.#deps.downloadRoot(),
      clock: this.#deps.clock,
    });
    running.submission = submission;
    running.running = true;
    const id = running.record.id;
    submission.on('step', ({ record }) => {
      running.record = record;
      if (record.jobId) this.#byJob.set(record.jobId, record);
      this.#emitSubmission(running);
    });
    submission.on('upload', (p) => {
      this.#deps.events.emit('transfer.progress', { id: `upload:${id}`, kind: 'upload', submissionId: id, jobId: null, ...p });
    });
    submission.on('job', ({ job }) => {
      this.#byJob.set(job.id, running.record);
      this.queue.put(this.#summarise(job));
    });
    submission.on('download', (p) => this.#onDownloadProgress(p, submission.record.download.dir));
    this.#emitSubmission(running);
    void submission.run(running.abort.signal).then(
      (record) => {
        running.running = false;
        running.record = record;
        if (record.step === 'downloaded' && record.jobId && record.downloadedTo) {
          const dir = record.downloadedTo;
          this.queue.patch(record.jobId, (s) => ({ ...s, download: { ...s.download, state: 'done', dir, error: null } }));
        }
        this.#emitSubmission(running);
      },
      (error: unknown) => {
        running.running = false;
        if (isAbort(error) && this.#closed) return;
        if (options.leaveIfBusy && error instanceof SubmissionBusyError && this.#submissions.get(id) === running) {
          this.#submissions.delete(id);
          this.#deps.events.emit('submission.removed', { id });
          return;
        }
        running.error = serializeError(error);
        if (running.record.step === 'completed' && running.record.jobId) {
          const message = running.error.message;
          this.queue.patch(running.record.jobId, (s) => ({ ...s, download: { ...s.download, state: 'failed', error: message } }));
        }
        this.#emitSubmission(running);
      },
    );
  }

  #awaitReview(running: Running, proposal: RenderProposal): Promise<boolean | RenderConfig> {
    return new Promise((resolve, reject) => {
      running.review = { proposal, resolve, reject };
      running.awaitingReview = true;
      this.queue.put(this.#summarise(proposal.job));
      this.#emitSubmission(running);
    });
  }

  #emitSubmission(running: Running) {
    if (this.#submissions.get(running.record.id) !== running) return;
    this.#deps.events.emit('submission.updated', toSubmissionView(running));
  }

  #requireSubmission(id: string): Running {
    const running = this.#submissions.get(id);
    if (!running) throw new NotFoundError('That submission is no longer known. Drop the file again.');
    return running;
  }

  #requireClient(): ApiClient {
    if (this.#deps.client) return this.#deps.client;
    const blocked = this.#deps.blocked;
    throw new ConfigError(blocked && 'message' in blocked ? blocked.message : 'This profile cannot be used yet.', { code: blocked?.state ?? 'blocked' });
  }

  // ---- downloads and details ----

  /** The folder a job's outputs go to. */
  jobDir(jobId: string): string {
    const summary = this.queue.get(jobId);
    if (summary?.download.dir) return summary.download.dir;
    const record = this.#byJob.get(jobId);
    if (record?.downloadedTo) return record.downloadedTo;
    if (record?.download.dir) return record.download.dir;
    const root = record?.download.root ?? this.#deps.downloadRoot();
    const scene = (summary?.fileName ?? record?.file.name ?? 'job').replace(/\.(blend\d*|zip)$/i, '');
    return join(root, jobFolderName({ id: jobId }, scene));
  }

  /** Downloads every output of a job into its folder (again), reporting progress. */
  async download(jobId: string): Promise<JobSummary> {
    const client = this.#requireClient();
    if (!this.queue.get(jobId)) this.queue.put(this.#summarise(await client.getJob(jobId)));
    if (this.#downloads.has(jobId)) return this.queue.get(jobId)!;
    const dir = this.jobDir(jobId);
    const abort = new AbortController();
    this.#downloads.set(jobId, abort);
    this.queue.patch(jobId, (s) => ({ ...s, download: { ...s.download, state: 'downloading', dir, error: null } }));
    try {
      const result = await downloadJobOutputs({ client, jobId, dir, signal: abort.signal, onProgress: (p) => this.#onDownloadProgress(p, dir) });
      this.queue.patch(jobId, (s) => ({ ...s, download: { ...s.download, state: 'done', dir: result.dir, filesDone: result.files.length, filesTotal: result.files.length, error: null } }));
    } catch (error) {
      const message = serializeError(error).message;
      this.queue.patch(jobId, (s) => ({ ...s, download: { ...s.download, state: 'failed', error: message } }));
      throw error;
    } finally {
      this.#downloads.delete(jobId);
    }
    return this.queue.get(jobId)!;
  }

  #onDownloadProgress(p: DownloadProgress, dir: string | null) {
    this.#deps.events.emit('transfer.progress', {
      id: `download:${p.jobId}`,
      kind: 'download',
      submissionId: null,
      jobId: p.jobId,
      bytes: p.bytes,
      total: p.bytesKnown || null,
      rate: p.rate,
      etaSeconds: p.rate > 0 && p.bytesKnown > p.bytes ? (p.bytesKnown - p.bytes) / p.rate : null,
      done: p.done,
    });
    this.queue.patch(p.jobId, (s) => ({
      ...s,
      download: { state: p.done ? 'done' : 'downloading', dir: dir ?? s.download.dir, filesDone: p.filesDone, filesTotal: p.filesTotal, bytes: p.bytes, error: null },
    }));
  }

  /** Cancels a job on the server. */
  async cancel(jobId: string): Promise<JobSummary> {
    const client = this.#requireClient();
    const running = [...this.#submissions.values()].find((r) => r.record.jobId === jobId && r.review);
    if (running) {
      await this.discard(running.record.id);
    } else {
      await client.cancelJob(jobId);
    }
    const job = await client.getJob(jobId);
    this.queue.put(this.#summarise(job));
    void this.#tracker?.refresh(jobId);
    return this.queue.get(jobId)!;
  }

  /** The job detail panel's data. */
  async detail(jobId: string): Promise<JobDetail> {
    const client = this.#requireClient();
    const job = await client.getJob(jobId);
    this.queue.put(this.#summarise(job));
    const summary = this.queue.get(jobId)!;
    const requested = asRecord(job.requestedConfig);
    const final = asRecord(job.finalConfig);
    return {
      summary,
      analysis: readAnalysis(job.analysis),
      requestedConfig: requested,
      finalConfig: final,
      differences: diffConfigs(requested, final),
      timeline: timelineOf(job),
      outputs: job.status === 'completed' || job.status === 'canceled' ? await this.#outputs(client, jobId) : [],
      hasPreview: typeof job.previewUrl === 'string' && job.previewUrl !== '',
    };
  }

  async #outputs(client: ApiClient, jobId: string): Promise<OutputFileView[]> {
    const plan = planOutputs(await client.getDownloads(jobId));
    const dir = this.jobDir(jobId);
    return Promise.all(
      plan.map(async (entry): Promise<OutputFileView> => {
        const path = resolveInside(dir, entry.relativePath);
        const done = await stat(path).catch(() => null);
        if (done?.isFile()) return { relativePath: entry.relativePath, state: 'downloaded', bytes: done.size };
        const part = await stat(`${path}.part`).catch(() => null);
        return { relativePath: entry.relativePath, state: part ? 'partial' : 'missing', bytes: part?.size ?? null };
      }),
    );
  }

  /** The job's preview image as a data URL, or null when it has none or it is not a usable image. */
  async preview(jobId: string): Promise<string | null> {
    const job = await this.#requireClient().getJob(jobId);
    if (typeof job.previewUrl !== 'string' || job.previewUrl === '') return null;
    return fetchPreview(job.previewUrl, PREVIEW_LIMIT);
  }

  /** Makes sure a job's folder exists (for "Open folder") and returns it. */
  async ensureJobDir(jobId: string): Promise<string> {
    const summary = this.queue.get(jobId);
    const dir = summary?.download.state === 'none' ? this.#deps.downloadRoot() : this.jobDir(jobId);
    await mkdir(dir, { recursive: true });
    return dir;
  }
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
