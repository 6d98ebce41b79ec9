import type { ApiClient } from '../../core/api/api-client';
import { InvalidStateError, isAbort, NotFoundError, PreflightError, serializeError, SubmissionBusyError, TransferError } from '../../core/errors';
import type { SubmissionJournal } from '../../core/journal/submission-journal';
import { reached, type SubmissionRecord } from '../../core/journal/submission-record';
import { Submission, type RenderProposal } from '../../core/submit/submission';
import { trackerWaiter, type WaitForJob } from '../../core/submit/wait-for-job';
import { JobTracker } from '../../core/tracking/tracker';
import { formatBytes } from '../../core/util/format-bytes';
import type { Job, JobStatus } from '../../shared/api/job';
import type { RenderConfig } from '../../shared/api/render-config';
import { UsageError } from '../cli-errors';
import { formatAnalysisSummary, summarizeAnalysis } from '../output/format-analysis';
import { adjustmentReasonsOf } from '../output/format-jobs';
import { formatDuration, formatTrackerRetry } from '../output/format-progress';
import type { LiveDisplay } from '../output/live-display';
import type { CliIo } from '../session/cli-io';
import { confirm } from '../terminal/prompt';
import { outcomeOfRecord, type OutcomeState, type SubmissionOutcome } from './submission-outcome';
import { formatSubmissionLine, statusLine, type SubmissionLineState } from './submission-line';

/** What a runner needs from the command that uses it. */
export interface SubmissionRunnerOptions {
  io: CliIo;
  journal: SubmissionJournal;
  display: LiveDisplay;
  signal: AbortSignal;
  /** Render without asking after the summary. */
  yes: boolean;
  /** A person can answer questions on this terminal. */
  canPrompt: boolean;
  /** Folder for records that want a download but name no folder (older journal entries). */
  defaultDownloadRoot: string;
  /** Width the file names are padded to in progress lines. */
  nameWidth: number;
}

/** A submission that reached the server's render queue and is left to it (or to `follow`). */
export interface HandedOff {
  handedOff: SubmissionRecord;
  client: ApiClient;
}

interface Tracked {
  line: SubmissionLineState;
  jobStatus: JobStatus | null;
  downloadedFiles: number | null;
  uploadStartedAt: number | null;
  adjustmentsShown: boolean;
}

/** Stops a submission where the server takes over (render requested), without aborting anything. */
class HandOff extends Error {
  constructor() {
    super('render requested');
    this.name = 'HandOff';
  }
}

/** The overrides ask for something the scene cannot do; nothing was sent. */
class RenderRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderRefused';
  }
}

const RENDER_STATUSES: readonly JobStatus[] = ['booting', 'rendering', 'finalizing', 'debugging', 'suspended'];

/**
 * Runs submissions for the CLI in two phases. `start` takes one submission from wherever its journal
 * record stands up to the render request, one at a time because it may ask the person (summary,
 * confirmation). `follow` then takes any number of started submissions to the end together (render,
 * download), with one tracker per server so the request rate does not grow with the number of jobs.
 * Progress goes to the display; every failure becomes an outcome, never an exception.
 */
export class SubmissionRunner {
  readonly #o: SubmissionRunnerOptions;
  readonly #trackers = new Map<ApiClient, JobTracker>();
  readonly #tracked = new Map<string, Tracked>();

  constructor(options: SubmissionRunnerOptions) {
    this.#o = options;
  }

  /**
   * Upload, create, validate, show the summary, confirm and request the render. Returns the record
   * handed to the server, or the outcome when the submission ended (or failed) before that.
   */
  async start(record: SubmissionRecord, client: ApiClient, renderConfig?: RenderConfig): Promise<HandedOff | SubmissionOutcome> {
    if (reached(record, 'render-requested')) return { handedOff: record, client };
    const tracker = this.#tracker(client);
    const inner = trackerWaiter(tracker);
    let submission: Submission | null = null;
    const waitForJob: WaitForJob = (jobId, until, options) => {
      if (submission?.record.step === 'render-requested') return Promise.reject(new HandOff());
      return inner(jobId, until, options).finally(() => tracker.unwatch(jobId));
    };
    submission = new Submission({
      client,
      journal: this.#o.journal,
      record,
      waitForJob,
      downloadRoot: this.#o.defaultDownloadRoot,
      confirm: (proposal) => this.#confirm(submission!.record, proposal),
      ...(renderConfig ? { renderConfig } : {}),
    });
    const tracked = this.#track(submission, record);
    try {
      const finished = await submission.run(this.#o.signal);
      return this.#finish(finished, tracked);
    } catch (error) {
      if (error instanceof HandOff) return { handedOff: submission.record, client };
      return this.#failed(submission.record, tracked, error);
    }
  }

  /** Follows started submissions together to their end: render, then download when wanted. */
  follow(items: readonly HandedOff[]): Promise<SubmissionOutcome[]> {
    return Promise.all(
      items.map(async ({ handedOff, client }) => {
        const submission = new Submission({
          client,
          journal: this.#o.journal,
          record: handedOff,
          waitForJob: trackerWaiter(this.#tracker(client)),
          downloadRoot: this.#o.defaultDownloadRoot,
        });
        const tracked = this.#track(submission, handedOff);
        try {
          return this.#finish(await submission.run(this.#o.signal), tracked);
        } catch (error) {
          return this.#failed(submission.record, tracked, error);
        }
      }),
    );
  }

  /** The outcome of a record handed to the server and not followed further. */
  leftRendering(item: HandedOff): SubmissionOutcome {
    const tracked = this.#tracked.get(item.handedOff.id);
    const outcome = outcomeOfRecord(item.handedOff, { jobStatus: tracked?.jobStatus ?? null, downloadedFiles: null });
    this.#o.display.finish(item.handedOff.id, this.#finalLine(outcome));
    return outcome;
  }

  /** Prints the final line of an outcome reached outside the runner (a file that failed its checks). */
  announce(outcome: SubmissionOutcome): void {
    this.#o.display.print(this.#finalLine(outcome));
  }

  /** Stops every tracker (so the process can end). */
  close(): void {
    for (const tracker of this.#trackers.values()) tracker.stop();
    this.#trackers.clear();
  }

  #tracker(client: ApiClient): JobTracker {
    let tracker = this.#trackers.get(client);
    if (!tracker) {
      tracker = new JobTracker({ client });
      tracker.on('error', ({ error, retryInMs, jobId, fatal }) => {
        if (jobId === undefined && !fatal) this.#o.display.print(formatTrackerRetry(error, retryInMs));
      });
      this.#trackers.set(client, tracker);
    }
    return tracker;
  }

  #track(submission: Submission, record: SubmissionRecord): Tracked {
    const tracked: Tracked = this.#tracked.get(record.id) ?? {
      line: { name: record.file.name, phase: 'starting', jobId: record.jobId, status: null, upload: null, frames: null, download: null },
      jobStatus: null,
      downloadedFiles: null,
      uploadStartedAt: null,
      adjustmentsShown: false,
    };
    this.#tracked.set(record.id, tracked);
    const { line } = tracked;
    line.phase = phaseOfStep(record);
    this.#show(record.id, tracked, true);
    submission.on('upload', (progress) => {
      tracked.uploadStartedAt ??= Date.now();
      const first = line.phase !== 'uploading';
      line.phase = 'uploading';
      line.upload = progress;
      this.#show(record.id, tracked, first);
    });
    submission.on('step', ({ record: current }) => {
      if (current.step === 'uploaded' && current.ending === null && tracked.uploadStartedAt !== null) {
        const seconds = (Date.now() - tracked.uploadStartedAt) / 1000;
        this.#o.display.print(statusLine(this.#name(line.name), 'uploaded', `${formatBytes(current.file.size)} in ${formatDuration(seconds)}`));
      }
      line.jobId = current.jobId;
      const phase = phaseOfStep(current);
      const changed = phase !== line.phase;
      line.phase = phase;
      if (current.ending === null) this.#show(current.id, tracked, changed);
    });
    submission.on('job', ({ job }) => {
      const changed = job.status !== tracked.jobStatus;
      tracked.jobStatus = job.status;
      line.jobId = job.id;
      line.status = job.status;
      if (job.status === 'completed' && line.frames) line.frames = { ...line.frames, completedFrames: line.frames.totalFrames };
      if (line.phase !== 'uploading' && line.phase !== 'downloading') line.phase = phaseOfJob(job.status, line.phase);
      this.#showAdjustments(job, tracked);
      this.#show(submission.record.id, tracked, changed);
    });
    submission.on('progress', (progress) => {
      line.frames = { completedFrames: progress.completedFrames, totalFrames: progress.totalFrames };
      this.#show(submission.record.id, tracked, false);
    });
    submission.on('download', (progress) => {
      const first = line.phase !== 'downloading';
      line.phase = 'downloading';
      line.download = progress;
      tracked.downloadedFiles = progress.filesTotal;
      this.#show(submission.record.id, tracked, first);
    });
    submission.on('notice', ({ message }) => this.#o.display.print(`${line.name}: ${message}`));
    return tracked;
  }

  #show(key: string, tracked: Tracked, force: boolean) {
    this.#o.display.update(key, formatSubmissionLine(tracked.line, { nameWidth: this.#o.nameWidth, bar: this.#o.display.live }), { force });
  }

  #showAdjustments(job: Job, tracked: Tracked) {
    if (tracked.adjustmentsShown) return;
    const adjustments = adjustmentReasonsOf(job);
    if (adjustments.length === 0) return;
    tracked.adjustmentsShown = true;
    this.#o.display.print([`${tracked.line.name}: the server adjusted the render settings:`, ...adjustments.map((reason) => `  - ${reason}`)]);
  }

  async #confirm(record: SubmissionRecord, proposal: RenderProposal): Promise<boolean> {
    const display = this.#o.display;
    display.print(formatAnalysisSummary({ fileName: record.file.name, jobId: proposal.job.id, analysis: proposal.analysis, renderConfig: proposal.renderConfig }));
    const problem = configProblem(proposal.analysis, proposal.renderConfig);
    if (problem) throw new RenderRefused(problem);
    if (this.#o.yes) return true;
    if (!this.#o.canPrompt) throw new UsageError('Rendering needs a confirmation, and there is no terminal to ask on. Add --yes to render without asking.');
    const frames = summarizeAnalysis(proposal.analysis, proposal.renderConfig).frameCount;
    display.suspend();
    try {
      const question = `Render ${frames !== null ? `${frames} ${frames === 1 ? 'frame' : 'frames'} of ` : ''}${record.file.name}?`;
      return await confirm(question, { input: this.#o.io.stdin, output: this.#o.io.stderr }, { signal: this.#o.signal });
    } finally {
      display.resume();
    }
  }

  #finish(record: SubmissionRecord, tracked: Tracked): SubmissionOutcome {
    const outcome = outcomeOfRecord(record, { jobStatus: tracked.jobStatus, downloadedFiles: tracked.downloadedFiles });
    this.#o.display.finish(record.id, this.#finalLine(outcome));
    return outcome;
  }

  async #failed(record: SubmissionRecord, tracked: Tracked, error: unknown): Promise<SubmissionOutcome> {
    let current = record;
    let state: OutcomeState = 'error';
    const serialized = error instanceof UsageError ? { kind: 'usage', message: error.message } : error instanceof RenderRefused ? { kind: 'invalid-config', message: error.message } : serializeError(error);
    if (error instanceof SubmissionBusyError) serialized.kind = 'busy';
    if (isAbort(error)) {
      state = 'interrupted';
    } else if (isDeadEnd(record, error)) {
      current = await this.#o.journal.update(record.id, { ending: 'failed', error: { kind: serialized.kind, message: serialized.message } }).catch(() => record);
    }
    const outcome: SubmissionOutcome = {
      ...outcomeOfRecord(current, { jobStatus: tracked.jobStatus, downloadedFiles: null }),
      state,
      error: state === 'interrupted' ? null : { kind: serialized.kind, message: serialized.message },
    };
    this.#o.display.finish(record.id, this.#finalLine(outcome));
    return outcome;
  }

  #finalLine(outcome: SubmissionOutcome): string {
    const name = this.#name(outcome.fileName);
    const job = outcome.jobId ? `job ${outcome.jobId}` : '';
    switch (outcome.state) {
      case 'downloaded': {
        const count = outcome.downloadedFiles;
        return statusLine(name, 'downloaded', `${count ?? 'all'} ${count === 1 ? 'file' : 'files'} to ${outcome.downloadedTo}`);
      }
      case 'completed':
        return statusLine(name, 'completed', job);
      case 'rendering':
        return statusLine(name, outcome.jobStatus && outcome.jobStatus !== 'validated' ? outcome.jobStatus : 'rendering', job);
      case 'failed':
        return statusLine(name, 'failed', outcome.error?.message ?? job);
      case 'canceled':
        return statusLine(name, 'canceled', job);
      case 'declined':
        return statusLine(name, 'declined', 'not rendered');
      case 'interrupted':
        return statusLine(name, 'stopped', outcome.step ? `at ${outcome.step}` : 'before it started');
      case 'error': {
        if (outcome.error?.kind === 'busy') return statusLine(name, 'skipped', outcome.error.message);
        const resumable = outcome.submissionId !== null && outcome.ending === null && outcome.error?.kind !== 'usage';
        return statusLine(name, 'error', `${outcome.error?.message ?? 'unknown error'}${resumable ? ' Saved: `renderdrop resume` continues it.' : ''}`);
      }
    }
  }

  #name(name: string): string {
    return name.padEnd(this.#o.nameWidth);
  }
}

/** Why the overrides cannot work with this scene, checked before anything is sent; null when they can. */
export function configProblem(analysis: unknown, config: RenderConfig): string | null {
  const cameras = analysis !== null && typeof analysis === 'object' ? (analysis as { cameras?: unknown }).cameras : undefined;
  if (config.activeCamera && Array.isArray(cameras) && cameras.length > 0 && !cameras.includes(config.activeCamera)) {
    return `The scene has no camera "${config.activeCamera}" (it has: ${cameras.join(', ')}). Nothing was rendered; submit again with one of these.`;
  }
  return null;
}

/**
 * Failures that running the submission again cannot fix, so it is ended instead of left to resume:
 * besides refused overrides, failed checks and a job the server lost, the storage refusing the upload
 * itself (a 4xx other than a timeout or a rate limit; an expired URL is renewed by the upload and ends
 * without a status), and the server refusing validation of a job still `created` (a 400: resending the
 * same request gets the same answer).
 */
function isDeadEnd(record: SubmissionRecord, error: unknown): boolean {
  if (error instanceof RenderRefused || error instanceof PreflightError) return true;
  if (error instanceof NotFoundError && record.jobId !== null) return true;
  if (error instanceof TransferError && !reached(record, 'uploaded')) return isRefusedUpload(error.status);
  if (error instanceof InvalidStateError && error.status === 400 && record.step === 'validate-requested') return true;
  return error instanceof InvalidStateError && record.step === 'render-requested';
}

function isRefusedUpload(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

function phaseOfStep(record: SubmissionRecord): SubmissionLineState['phase'] {
  switch (record.step) {
    case 'preflighted':
    case 'upload-target':
      return 'uploading';
    case 'uploaded':
    case 'creating-job':
      return 'creating';
    case 'job-created':
    case 'validate-requested':
      return 'validating';
    case 'validated':
      return 'waiting';
    case 'render-requested':
      return 'rendering';
    case 'completed':
    case 'downloaded':
      return record.download.wanted ? 'downloading' : 'rendering';
  }
}

function phaseOfJob(status: JobStatus, current: SubmissionLineState['phase']): SubmissionLineState['phase'] {
  if (status === 'created' || status === 'validating') return 'validating';
  if (status === 'validated') return 'waiting';
  if (RENDER_STATUSES.includes(status)) return 'rendering';
  return current;
}
