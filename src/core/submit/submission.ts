import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Downloads } from '../../shared/api/downloads';
import type { Job, JobList, JobStatus, ProgressRecord } from '../../shared/api/job';
import type { RenderConfig } from '../../shared/api/render-config';
import type { FileType, UploadTarget } from '../../shared/api/upload';
import type { CallOptions, ListJobsQuery, RenderResult } from '../api/api-client';
import { downloadJobOutputs, type DownloadJobOptions, type DownloadJobResult, type DownloadProgress } from '../download/download-job';
import { jobFolderName } from '../download/job-folder';
import { AbortError, InvalidStateError, NetworkError, RenderdropError } from '../errors';
import type { SubmissionJournal } from '../journal/submission-journal';
import { isFinished, type SubmissionRecord } from '../journal/submission-record';
import type { FrameProgress } from '../tracking/tracker';
import type { TransferProgress } from '../transfer/progress-meter';
import { preflight } from '../upload/preflight';
import { uploadFile, type UploadOptions, type UploadResult } from '../upload/upload';
import { throwIfAborted } from '../util/abortable-sleep';
import { systemClock, type Clock } from '../util/clock';
import { TypedEmitter } from '../util/typed-emitter';
import { findCreatedJob } from './find-created-job';
import { pollingWaiter, type WaitForJob } from './wait-for-job';

/** The API operations a submission uses. */
export interface SubmissionClient {
  createUpload(request: { fileName: string; fileType: FileType }, options?: CallOptions): Promise<UploadTarget>;
  createJob(slug: string, options?: CallOptions): Promise<Job>;
  listJobs(query?: ListJobsQuery, options?: CallOptions): Promise<JobList>;
  getJob(jobId: string, options?: CallOptions): Promise<Job>;
  getProgress(jobId: string, options?: CallOptions): Promise<ProgressRecord>;
  validateJob(jobId: string, body?: Record<string, unknown>, options?: CallOptions): Promise<Job>;
  renderJob(jobId: string, config: RenderConfig, options?: CallOptions): Promise<RenderResult>;
  getDownloads(jobId: string, options?: CallOptions): Promise<Downloads>;
}

/** What `confirm` is shown between validation and render. */
export interface RenderProposal {
  job: Job;
  /** `job.analysis` as the server sent it (the local node's shape is `SceneAnalysis`). */
  analysis: unknown;
  renderConfig: RenderConfig;
}

/** `true` renders with the proposed config, a config renders with that one, `false` stops here. */
export type ConfirmRender = (proposal: RenderProposal) => Promise<boolean | RenderConfig>;

/** Everything a running submission reports. */
export interface SubmissionEvents extends Record<string, unknown> {
  /** The journal record moved to a new step (or ended). */
  step: { record: SubmissionRecord };
  upload: TransferProgress;
  job: { job: Job };
  progress: { jobId: string } & FrameProgress;
  download: DownloadProgress;
  /** Something a person may want to know (a recovered job, a fresh upload URL). */
  notice: { message: string };
}

/** Dependencies and choices of a submission run. */
export interface SubmissionOptions {
  client: SubmissionClient;
  journal: SubmissionJournal;
  record: SubmissionRecord;
  confirm?: ConfirmRender;
  /** Render configuration to use (else the recorded one, else `{ colorManagementPreset: 'default' }`). */
  renderConfig?: RenderConfig;
  waitForJob?: WaitForJob;
  /** Root under which `<scene>-<short id>/` is created when the record names no folder. */
  downloadRoot?: string;
  downloadConcurrency?: number;
  clock?: Clock;
  /** Replaceable transfer functions (tests, benchmarks). */
  upload?: (options: UploadOptions) => Promise<UploadResult>;
  download?: (options: DownloadJobOptions) => Promise<DownloadJobResult>;
}

const DEFAULT_RENDER_CONFIG: RenderConfig = { colorManagementPreset: 'default' };
const AFTER_VALIDATION: readonly JobStatus[] = ['validated', 'booting', 'rendering', 'finalizing', 'completed', 'failed', 'canceled', 'suspended', 'debugging'];
const TERMINAL: readonly JobStatus[] = ['completed', 'failed', 'canceled'];

/**
 * Drives one submission from whatever step its journal record is at to the end: upload (never twice
 * once done), job creation (never twice: the intent is recorded first and recovered after a crash),
 * validation, confirmation, render, completion, download (resumed, never lost). Every step is written
 * to the journal before the next begins. Network failures and aborts leave the record resumable.
 */
export class Submission extends TypedEmitter<SubmissionEvents> {
  #record: SubmissionRecord;
  readonly #options: SubmissionOptions;
  readonly #clock: Clock;
  readonly #wait: WaitForJob;

  constructor(options: SubmissionOptions) {
    super();
    this.#options = options;
    this.#record = options.record;
    this.#clock = options.clock ?? systemClock;
    this.#wait = options.waitForJob ?? pollingWaiter(options.client);
  }

  /** The journal record as of the last step. */
  get record(): SubmissionRecord {
    return this.#record;
  }

  /**
   * Runs to the end (or until an error or abort, leaving the record resumable). Holds the record's
   * journal lock meanwhile and starts from the record as stored, so it never repeats work another run
   * did; throws SubmissionBusyError when another run holds it.
   */
  async run(signal?: AbortSignal): Promise<SubmissionRecord> {
    if (isFinished(this.#record)) return this.#record;
    throwIfAborted(signal);
    const lock = await this.#options.journal.lock(this.#record.id);
    try {
      await this.#reload();
      return await this.#drive(signal);
    } finally {
      lock.release();
    }
  }

  async #reload() {
    const stored = await this.#options.journal.get(this.#record.id);
    if (!stored) return;
    const before = this.#record;
    this.#record = stored;
    if (stored.step !== before.step || stored.ending !== before.ending) this.emit('step', { record: stored });
  }

  async #drive(signal: AbortSignal | undefined): Promise<SubmissionRecord> {
    const call: CallOptions = signal ? { signal } : {};
    while (!isFinished(this.#record)) {
      throwIfAborted(signal);
      const record = this.#record;
      switch (record.step) {
        case 'preflighted':
        case 'upload-target':
          await this.#upload(call, signal);
          break;
        case 'uploaded':
          await this.#save({ step: 'creating-job', jobIntentAt: this.#now() });
          await this.#createJob(call, signal);
          break;
        case 'creating-job':
          await this.#recoverOrCreateJob(call, signal);
          break;
        case 'job-created':
          await this.#save({ step: 'validate-requested' });
          await this.#requestValidation(call);
          break;
        case 'validate-requested':
          await this.#awaitValidation(call, signal);
          break;
        case 'validated':
          await this.#startRender(call, signal);
          break;
        case 'render-requested':
          await this.#awaitRender(call, signal);
          break;
        case 'completed':
          await this.#download(signal);
          break;
        case 'downloaded':
          break;
      }
    }
    return this.#record;
  }

  async #upload(call: CallOptions, signal: AbortSignal | undefined) {
    const file = this.#record.file;
    const info = await stat(file.path).catch(() => null);
    if (!info || info.size !== file.size || Math.abs(info.mtimeMs - file.mtimeMs) >= 1) {
      const checked = await preflight(file.path);
      await this.#save({ file: { ...file, size: checked.size, mtimeMs: checked.mtimeMs } });
      this.emit('notice', { message: `${file.name} changed since it was added; uploading the current version.` });
    }
    const request = { fileName: file.name, fileType: file.fileType };
    const target = await this.#options.client.createUpload(request, call);
    await this.#save({ step: 'upload-target', slug: target.slug, uploadExpiresAt: target.expiresAt });
    const upload = this.#options.upload ?? uploadFile;
    const result = await upload({
      filePath: this.#record.file.path,
      size: this.#record.file.size,
      fileType: file.fileType,
      target,
      refreshTarget: async () => {
        const fresh = await this.#options.client.createUpload(request, call);
        await this.#save({ slug: fresh.slug, uploadExpiresAt: fresh.expiresAt });
        this.emit('notice', { message: 'The upload URL expired; continuing with a fresh one.' });
        return fresh;
      },
      onProgress: (progress) => this.emit('upload', progress),
      clock: this.#clock,
      ...(signal ? { signal } : {}),
    });
    await this.#save({ step: 'uploaded', slug: result.target.slug, uploadExpiresAt: null });
  }

  /**
   * POST /jobs for the recorded slug. When the request certainly created nothing (aborted before it
   * was sent, never reached the server, or refused with a 4xx) the record goes back to `uploaded`,
   * so the next run creates the job directly instead of searching for one.
   */
  async #createJob(call: CallOptions, signal: AbortSignal | undefined) {
    const slug = this.#requireSlug();
    if (signal?.aborted) {
      await this.#save({ step: 'uploaded', jobIntentAt: null });
      throw new AbortError();
    }
    let job: Job;
    try {
      job = await this.#options.client.createJob(slug, call);
    } catch (error) {
      if (error instanceof InvalidStateError && error.existingJobId) {
        job = await this.#options.client.getJob(error.existingJobId, call);
        this.emit('notice', { message: `The server already had job ${job.id} for this upload; continuing with it.` });
      } else {
        if (createdNothing(error)) await this.#save({ step: 'uploaded', jobIntentAt: null });
        throw error;
      }
    }
    this.emit('job', { job });
    await this.#save({ step: 'job-created', jobId: job.id });
  }

  async #recoverOrCreateJob(call: CallOptions, signal: AbortSignal | undefined) {
    const record = this.#record;
    const others = (await this.#options.journal.list()).filter((r) => r.id !== record.id);
    const ownedElsewhere = new Set(others.flatMap((r) => (r.jobId ? [r.jobId] : [])));
    const rivalMayOwn = others.some((r) => r.jobId === null && r.step === 'creating-job' && r.file.name === record.file.name && sameServer(r.baseUrl, record.baseUrl));
    const search = await findCreatedJob(
      this.#options.client,
      { slug: this.#requireSlug(), fileName: record.file.name, intentAt: record.jobIntentAt ?? record.updatedAt, ownedElsewhere, rivalMayOwn },
      call,
    );
    if (search.kind === 'none') {
      await this.#createJob(call, signal);
      return;
    }
    if (search.kind === 'ambiguous') {
      const ids = search.jobs.map((j) => j.id);
      const which = ids.length === 1 ? `job ${ids[0]} was` : `jobs ${ids.join(', ')} were`;
      const message =
        `Creating the job for ${record.file.name} was interrupted, and ${which} made from a file of that name around then; ` +
        `${ids.length === 1 ? 'it' : 'one of them'} may be this submission's or another's. Renderdrop stopped rather than guess. ` +
        'Check them in the job list (`renderdrop jobs`), cancel what nobody needs, and submit the file again.';
      await this.#save({ ending: 'failed', error: { kind: 'job-recovery-ambiguous', message } });
      return;
    }
    const how = search.by === 'slug' ? 'created before the interruption' : 'made from this file around the time of the interruption';
    this.emit('notice', { message: `Found job ${search.job.id} ${how}; continuing with it.` });
    this.emit('job', { job: search.job });
    await this.#save({ step: 'job-created', jobId: search.job.id });
  }

  async #requestValidation(call: CallOptions) {
    const jobId = this.#requireJobId();
    try {
      const job = await this.#options.client.validateJob(jobId, this.#record.validateBody ?? {}, call);
      this.emit('job', { job });
    } catch (error) {
      if (!(error instanceof InvalidStateError)) throw error;
      const job = await this.#options.client.getJob(jobId, call);
      if (job.status === 'created') throw error;
    }
  }

  async #awaitValidation(call: CallOptions, signal: AbortSignal | undefined) {
    const jobId = this.#requireJobId();
    const current = await this.#options.client.getJob(jobId, call);
    if (current.status === 'created') await this.#requestValidation(call);
    const job = await this.#waitFor(jobId, (j) => AFTER_VALIDATION.includes(j.status), signal);
    if (await this.#endedBy(job)) return;
    if (job.status === 'validated') await this.#save({ step: 'validated' });
    else await this.#save({ step: 'render-requested' });
  }

  async #startRender(call: CallOptions, signal: AbortSignal | undefined) {
    const jobId = this.#requireJobId();
    const job = await this.#options.client.getJob(jobId, call);
    if (await this.#endedBy(job)) return;
    if (job.status !== 'validated') {
      await this.#save({ step: 'render-requested' });
      return;
    }
    let config: RenderConfig = this.#options.renderConfig ?? (this.#record.renderConfig as RenderConfig | null) ?? DEFAULT_RENDER_CONFIG;
    if (this.#options.confirm) {
      const answer = await this.#options.confirm({ job, analysis: job.analysis ?? null, renderConfig: config });
      throwIfAborted(signal);
      if (answer === false) {
        await this.#save({ ending: 'declined' });
        return;
      }
      if (answer !== true) config = answer;
    }
    await this.#save({ step: 'render-requested', renderConfig: config as Record<string, unknown> });
    const result = await this.#options.client.renderJob(jobId, config, call);
    this.emit('job', { job: result.job });
  }

  async #awaitRender(call: CallOptions, signal: AbortSignal | undefined) {
    const jobId = this.#requireJobId();
    const current = await this.#options.client.getJob(jobId, call);
    if (current.status === 'validated') {
      const config = (this.#record.renderConfig as RenderConfig | null) ?? this.#options.renderConfig ?? DEFAULT_RENDER_CONFIG;
      const result = await this.#options.client.renderJob(jobId, config, call);
      this.emit('job', { job: result.job });
    }
    const job = await this.#waitFor(jobId, (j) => TERMINAL.includes(j.status), signal);
    if (await this.#endedBy(job)) return;
    await this.#save({ step: 'completed' });
  }

  async #download(signal: AbortSignal | undefined) {
    const jobId = this.#requireJobId();
    let dir = this.#record.download.dir;
    if (dir === null) {
      const root = this.#record.download.root ?? this.#options.downloadRoot;
      if (!root) throw new InvalidStateError('No download folder is set. Choose one in Settings or with --download <dir>.');
      const sceneName = this.#record.file.name.replace(/\.(blend|zip)$/i, '');
      dir = join(root, jobFolderName({ id: jobId }, sceneName));
      await this.#save({ download: { ...this.#record.download, wanted: true, dir } });
    }
    const download = this.#options.download ?? downloadJobOutputs;
    const result = await download({
      client: this.#options.client,
      jobId,
      dir,
      onProgress: (progress) => this.emit('download', progress),
      clock: this.#clock,
      ...(this.#options.downloadConcurrency !== undefined ? { concurrency: this.#options.downloadConcurrency } : {}),
      ...(signal ? { signal } : {}),
    });
    await this.#save({ step: 'downloaded', downloadedTo: result.dir });
  }

  #waitFor(jobId: string, until: (job: Job) => boolean, signal: AbortSignal | undefined): Promise<Job> {
    return this.#wait(jobId, until, {
      ...(signal ? { signal } : {}),
      onJob: (job) => this.emit('job', { job }),
      onProgress: (progress) => this.emit('progress', { jobId, ...progress }),
    });
  }

  /** Ends the submission when the job failed or was canceled; true when it did. */
  async #endedBy(job: Job): Promise<boolean> {
    if (job.status === 'failed') {
      const reason = job.failedReason;
      const detail = reason ? `${reason.name} (${reason.type})${reason.message ? `: ${reason.message}` : ''}` : 'no reason given';
      await this.#save({ ending: 'failed', error: { kind: 'job-failed', message: `Job ${job.id} failed: ${detail}.` } });
      return true;
    }
    if (job.status === 'canceled') {
      await this.#save({ ending: 'canceled' });
      return true;
    }
    return false;
  }

  async #save(patch: Parameters<SubmissionJournal['update']>[1]) {
    const before = this.#record.step;
    const endingBefore = this.#record.ending;
    this.#record = await this.#options.journal.update(this.#record.id, patch);
    if (this.#record.step !== before || this.#record.ending !== endingBefore) this.emit('step', { record: this.#record });
  }

  #requireSlug(): string {
    if (!this.#record.slug) throw new InvalidStateError(`Submission ${this.#record.id} has no upload slug recorded; submit the file again.`);
    return this.#record.slug;
  }

  #requireJobId(): string {
    if (!this.#record.jobId) throw new InvalidStateError(`Submission ${this.#record.id} has no job recorded; submit the file again.`);
    return this.#record.jobId;
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }
}

/** Whether a failed POST /jobs certainly created no job. */
function createdNothing(error: unknown): boolean {
  if (error instanceof NetworkError) return !error.maybeApplied;
  return error instanceof RenderdropError && error.status !== undefined && error.status >= 400 && error.status < 500;
}

function sameServer(a: string, b: string): boolean {
  return a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();
}

/** Preflights a file and records a new submission for it (nothing is sent yet). */
export async function recordSubmission(
  journal: SubmissionJournal,
  init: { filePath: string; baseUrl: string; profileId: string | null; renderConfig?: RenderConfig | null; download?: SubmissionRecord['download'] },
): Promise<SubmissionRecord> {
  const checked = await preflight(resolve(init.filePath));
  return journal.create({
    baseUrl: init.baseUrl,
    profileId: init.profileId,
    file: { path: checked.path, name: checked.fileName, size: checked.size, mtimeMs: checked.mtimeMs, fileType: checked.fileType },
    renderConfig: (init.renderConfig as Record<string, unknown> | null | undefined) ?? null,
    ...(init.download ? { download: init.download } : {}),
  });
}
