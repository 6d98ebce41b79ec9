import { dirname } from 'node:path';
import type { ApiClient } from '../../core/api';
import { isAbort, serializeError, SubmissionBusyError } from '../../core/errors';
import { isFinished, reached, type SubmissionRecord } from '../../core/journal';
import { type RenderProposal, awaitsDecision, lifecyclePhase, scenesToChooseFrom, SubmissionLifecycle, type ClaimedSubmission, trackerWaiter, type WaitForJob } from '../../core/lifecycle';
import { analysisForArtist } from '../../core/packing';
import { JobTracker } from '../../core/tracking';
import { countOf, formatBytes, formatDuration } from '../../shared/text';
import { type Job, JOB_STATUS_TABLE, type JobStatus, type RenderConfig } from '../../shared/api';
import { UsageError } from '../cli-errors';
import { adjustmentReasonsOf, artistJobWarnings, formatTrackerRetry, type JobWarning } from '../output';
import { formatPackingSummary } from '../packing';
import { formatAnalysisSummary, summarizeAnalysis } from './format-analysis';
import { safeText } from '../terminal';
import { askForScene, sceneOptionExample } from './scene-question';
import { outcomeOfRecord, type OutcomeState, type ReviewSummary, type SubmissionOutcome } from './submission-outcome';
import { awaitNodeEstimate } from './await-estimate';
import { estimateRangeText } from '../../shared/render';
import { formatSubmissionLine, statusLine, type SubmissionLineState } from './submission-line';
import { missingAdvice } from './missing-advice';
import { outcomeLine } from './outcome-line';
import type { HandedOff, SubmissionRunnerOptions } from './submission-runner-options';

interface Tracked {
  line: SubmissionLineState;
  jobStatus: JobStatus | null;
  downloadedFiles: number | null;
  packStartedAt: number | null;
  packingShown: boolean;
  uploadStartedAt: number | null;
  adjustmentsShown: boolean;
  /** The job as the server last told it, for its warnings. */
  job: Job | null;
  /** Messages of the job's warnings already printed (the summary's), so the end prints only new ones. */
  warningsShown: Set<string>;
}

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
  readonly #reviews = new Map<string, ReviewSummary>();

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
    const waitForJob: WaitForJob = (jobId, until, options) => inner(jobId, until, options).finally(() => tracker.unwatch(jobId));
    const signal = this.#o.signal;
    const options = { signal, ...(renderConfig ? { renderConfig } : {}) };
    return this.#drive(record, client, waitForJob, async (claimed) => {
      let current = await claimed.advance({ until: 'validated', ...options });
      while (awaitsDecision(current)) {
        await claimed.chooseScene(await this.#askForScene(current));
        current = await claimed.advance({ until: 'validated', ...options });
      }
      if (current.step !== 'validated' || isFinished(current)) return;
      const proposal = await claimed.review(options);
      if (proposal === null) return;
      if (this.#o.validateOnly) return this.#holdForReview(current, proposal, await awaitNodeEstimate(client, proposal.job, signal, undefined, proposal.renderConfig));
      if (await this.#confirm(current, proposal)) await claimed.advance({ until: 'render-requested', ...options });
      else await claimed.decline();
    });
  }

  /** Follows started submissions together to their end: render, then download when wanted. */
  follow(items: readonly HandedOff[]): Promise<SubmissionOutcome[]> {
    return Promise.all(
      items.map(async ({ handedOff, client }) => {
        const outcome = await this.#drive(handedOff, client, trackerWaiter(this.#tracker(client)), async (claimed) => {
          await claimed.advance({ until: 'done', signal: this.#o.signal });
        });
        return 'handedOff' in outcome ? this.leftRendering(outcome) : outcome;
      }),
    );
  }

  /** Claims a record, shows its progress while `work` advances it, and turns where it stopped into a result. */
  async #drive(
    record: SubmissionRecord,
    client: ApiClient,
    waitForJob: WaitForJob,
    work: (claimed: ClaimedSubmission) => Promise<void>,
  ): Promise<HandedOff | SubmissionOutcome> {
    const lifecycle = new SubmissionLifecycle({ client, journal: this.#o.journal, waitForJob, downloadRoot: this.#o.defaultDownloadRoot });
    let claimed: ClaimedSubmission;
    try {
      claimed = await lifecycle.claim(record);
    } catch (error) {
      return this.#failed(record, this.#track(null, record), error);
    }
    const tracked = this.#track(claimed, claimed.record);
    try {
      await work(claimed);
    } catch (error) {
      return this.#failed(claimed.record, tracked, error);
    } finally {
      claimed.release();
    }
    const current = claimed.record;
    if (!isFinished(current) && reached(current, 'render-requested')) return { handedOff: current, client };
    return this.#finish(current, tracked);
  }

  /** The outcome of a record handed to the server and not followed further. */
  leftRendering(item: HandedOff): SubmissionOutcome {
    const tracked = this.#tracked.get(item.handedOff.id);
    const outcome = outcomeOfRecord(item.handedOff, { jobStatus: tracked?.jobStatus ?? null, downloadedFiles: null, warnings: this.#warningsOf(item.handedOff, tracked) });
    this.#o.display.finish(item.handedOff.id, outcomeLine(outcome, this.#o.nameWidth));
    return outcome;
  }

  /** Prints the final line of an outcome reached outside the runner (a file that failed its checks). */
  announce(outcome: SubmissionOutcome): void {
    this.#o.display.print(outcomeLine(outcome, this.#o.nameWidth));
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

  #track(submission: ClaimedSubmission | null, record: SubmissionRecord): Tracked {
    const tracked: Tracked = this.#tracked.get(record.id) ?? {
      line: { name: record.file.name, phase: 'starting', jobId: record.jobId, status: null, pack: null, bundle: null, upload: null, frames: null, download: null },
      jobStatus: null,
      downloadedFiles: null,
      packStartedAt: null,
      packingShown: false,
      uploadStartedAt: null,
      adjustmentsShown: false,
      job: null,
      warningsShown: new Set(),
    };
    this.#tracked.set(record.id, tracked);
    const { line } = tracked;
    line.phase = lifecyclePhase(record);
    line.bundle = bundleOf(record);
    this.#show(record.id, tracked, true);
    if (!submission) return tracked;
    submission.on('pack', (progress) => {
      const first = line.phase !== 'packing';
      line.phase = 'packing';
      line.pack = progress;
      this.#show(record.id, tracked, first || progress.done);
    });
    submission.on('upload', (progress) => {
      tracked.uploadStartedAt ??= Date.now();
      const first = line.phase !== 'uploading';
      line.phase = 'uploading';
      line.upload = progress;
      this.#show(record.id, tracked, first);
    });
    submission.on('step', ({ record: current }) => {
      this.#showPacking(current, tracked);
      line.bundle = bundleOf(current);
      if (current.step === 'uploaded' && current.ending === null && tracked.uploadStartedAt !== null) {
        const seconds = (Date.now() - tracked.uploadStartedAt) / 1000;
        const what = line.bundle ? `${countOf(line.bundle.files, 'file')}, ${formatBytes(line.bundle.bytes)}` : formatBytes(current.file.size);
        this.#o.display.print(statusLine(this.#name(line.name), 'uploaded', `${what} in ${formatDuration(seconds)}`));
      }
      line.jobId = current.jobId;
      const phase = lifecyclePhase(current);
      const changed = phase !== line.phase;
      line.phase = phase;
      if (current.ending === null) this.#show(current.id, tracked, changed);
    });
    submission.on('job', ({ job }) => {
      const changed = job.status !== tracked.jobStatus;
      tracked.jobStatus = job.status;
      tracked.job = job;
      if (job.status === 'completed') this.#showNewWarnings(submission.record, tracked);
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
    submission.on('framesOnDisk', (progress) => {
      line.onDisk = progress;
      this.#show(submission.record.id, tracked, false);
    });
    submission.on('notice', ({ message }) => this.#o.display.print(`${line.name}: ${message}`));
    return tracked;
  }

  #show(key: string, tracked: Tracked, force: boolean) {
    this.#o.display.update(key, formatSubmissionLine(tracked.line, { nameWidth: this.#o.nameWidth, bar: this.#o.display.live }), { force });
  }

  /**
   * Before anything is uploaded: what travels and what is missing (once, as soon as the record knows),
   * then how long packing took.
   */
  #showPacking(record: SubmissionRecord, tracked: Tracked) {
    if (record.ending !== null) return;
    const name = tracked.line.name;
    if (!tracked.packingShown && record.packing && (record.step === 'traced' || record.step === 'packing' || record.step === 'packed')) {
      tracked.packingShown = true;
      const lines = formatPackingSummary(name, record.packing, record.project ?? dirname(record.file.path));
      if (lines.length > 0) this.#o.display.print(lines);
    }
    if (record.step === 'packing') tracked.packStartedAt ??= Date.now();
    if (record.step === 'packed' && record.bundle && record.packing && tracked.packStartedAt !== null) {
      const seconds = (Date.now() - tracked.packStartedAt) / 1000;
      this.#o.display.print(statusLine(this.#name(name), 'packed', `${countOf(record.packing.files, 'file')}, ${formatBytes(record.packing.bytes)} in ${formatDuration(seconds)}`));
    }
  }

  /** Warnings the job gained after its summary was shown (Blender's errors while rendering), printed once. */
  #showNewWarnings(record: SubmissionRecord, tracked: Tracked) {
    const fresh = this.#warningsOf(record, tracked).filter((w) => w.code !== 'python-runs' && !tracked.warningsShown.has(w.message));
    for (const w of fresh) tracked.warningsShown.add(w.message);
    if (fresh.length > 0) this.#o.display.print(fresh.map((w) => `${tracked.line.name}: ${safeText(w.message)}`));
  }

  /** The job's warnings for the outcome: the one list, packed files named as the artist knows them. */
  #warningsOf(record: SubmissionRecord, tracked: Tracked | undefined): JobWarning[] {
    return tracked?.job ? artistJobWarnings(tracked.job, record.packing) : [];
  }

  #showAdjustments(job: Job, tracked: Tracked) {
    if (tracked.adjustmentsShown) return;
    const adjustments = adjustmentReasonsOf(job);
    if (adjustments.length === 0) return;
    tracked.adjustmentsShown = true;
    this.#o.display.print([`${tracked.line.name}: the server adjusted the render settings:`, ...adjustments.map((reason) => `  - ${reason}`)]);
  }

  /**
   * Shows what validation found and asks whether to render. Settings the scene cannot do are not
   * asked about: going ahead with them makes the lifecycle refuse them and end the submission.
   */
  async #confirm(record: SubmissionRecord, proposal: RenderProposal): Promise<boolean> {
    const display = this.#o.display;
    this.#printSummary(record, proposal);
    if (proposal.problem !== null || this.#o.yes) return true;
    if (!this.#o.canPrompt) throw new UsageError('Rendering needs a confirmation, and there is no terminal to ask on. Add --yes to render without asking.');
    const frames = summarizeAnalysis(proposal.analysis, proposal.renderConfig).frameCount;
    display.suspend();
    try {
      const question = `Render ${frames !== null ? `${countOf(frames, 'frame')} of ` : ''}${record.file.name}?`;
      return await this.#o.confirm(question, { signal: this.#o.signal });
    } finally {
      display.resume();
    }
  }

  #printSummary(record: SubmissionRecord, proposal: RenderProposal): void {
    const tracked = this.#tracked.get(record.id);
    if (tracked) {
      tracked.job = proposal.job;
      for (const w of artistJobWarnings(proposal.job, record.packing)) tracked.warningsShown.add(w.message);
    }
    this.#o.display.print(
      formatAnalysisSummary({
        fileName: record.file.name,
        jobId: proposal.job.id,
        analysis: analysisForArtist(proposal.analysis, record.packing, 'disk'),
        renderConfig: proposal.renderConfig,
        missingAdvice: missingAdvice(record),
      }),
    );
  }

  /** `--validate-only`: shows the summary (and a Renderdrop node's estimate) and keeps it for the outcome; the submission waits at `validated`. */
  #holdForReview(record: SubmissionRecord, proposal: RenderProposal, estimate: ReviewSummary['estimate']): void {
    this.#printSummary(record, proposal);
    if (estimate) this.#o.display.print(`Render time on this farm: ${estimateRangeText(estimate)} (from a sample render of the scene).`);
    const summary = summarizeAnalysis(analysisForArtist(proposal.analysis, record.packing, 'disk'), proposal.renderConfig, missingAdvice(record));
    this.#reviews.set(record.id, { jobId: proposal.job.id, rows: summary.rows, warnings: summary.warnings, frameCount: summary.frameCount, problem: proposal.problem, estimate });
  }

  /** The scene of a zip recorded without one (by the app), asked on the terminal. */
  #askForScene(record: SubmissionRecord): Promise<string> {
    const scenes = scenesToChooseFrom(record) ?? [];
    const question = { choose: this.#o.choose, canPrompt: this.#o.canPrompt, signal: this.#o.signal, display: this.#o.display };
    return askForScene(question, record.file.name, scenes, `Run \`renderdrop resume\` on a terminal to choose, or submit the zip again with ${sceneOptionExample(scenes)}.`);
  }

  #finish(record: SubmissionRecord, tracked: Tracked): SubmissionOutcome {
    const outcome = outcomeOfRecord(record, { jobStatus: tracked.jobStatus, downloadedFiles: tracked.downloadedFiles, warnings: this.#warningsOf(record, tracked) });
    const review = this.#reviews.get(record.id);
    if (review && outcome.state === 'validated') outcome.review = review;
    this.#o.display.finish(record.id, outcomeLine(outcome, this.#o.nameWidth));
    return outcome;
  }

  /** The outcome of a run that failed; a failure that running again cannot fix has already ended the record. */
  #failed(record: SubmissionRecord, tracked: Tracked, error: unknown): SubmissionOutcome {
    const state: OutcomeState = isAbort(error) ? 'interrupted' : 'error';
    const serialized = error instanceof UsageError ? { kind: 'usage', message: error.message } : serializeError(error);
    if (error instanceof SubmissionBusyError) serialized.kind = 'busy';
    const outcome: SubmissionOutcome = {
      ...outcomeOfRecord(record, { jobStatus: tracked.jobStatus, downloadedFiles: null, warnings: this.#warningsOf(record, tracked) }),
      state,
      error: state === 'interrupted' ? null : { kind: serialized.kind, message: serialized.message },
    };
    this.#o.display.finish(record.id, outcomeLine(outcome, this.#o.nameWidth));
    return outcome;
  }

  #name(name: string): string {
    return name.padEnd(this.#o.nameWidth);
  }
}

/** The bundle a record uploads instead of the scene alone (its files and zip size), or null. */
function bundleOf(record: SubmissionRecord): SubmissionLineState['bundle'] {
  return record.bundle && record.packing ? { files: record.packing.files, bytes: record.bundle.size } : null;
}

function phaseOfJob(status: JobStatus, current: SubmissionLineState['phase']): SubmissionLineState['phase'] {
  switch (JOB_STATUS_TABLE[status].stage) {
    case 'validation':
      return 'validating';
    case 'review':
      return 'review';
    case 'render':
      return 'rendering';
    case 'ended':
      return current;
  }
}
