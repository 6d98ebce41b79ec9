import { dirname } from 'node:path';
import { InvalidStateError, isAbort, NotFoundError, serializeError, SubmissionBusyError } from '../../core/errors';
import { isFinished, type SubmissionRecord } from '../../core/journal';
import { awaitsDecision, recordForFile, scenesToChooseFrom, type ClaimedSubmission } from '../../core/lifecycle';
import { isWithin, leftOutFiles, ProjectRoots } from '../../core/packing';
import type { NodeWorkers, RenderConfig } from '../../shared/api';
import type { ReviewSheet, SubmissionView, SubmitFileResult } from '../../shared/contract';
import { nodeEstimateOf, reviewSheetOf, studioChoiceOf } from './review-sheet';
import { planSubmitAgain } from './submit-again';
import { suggestedProject, toSubmissionView } from './submission-view';
import { claimSubmission } from './claim-submission';
import { runSubmission } from './run-submission';
import { trackedSubmission, type HostSubmissionsDeps, type TrackedSubmission } from './tracked-submission';

/**
 * The submissions going to one profile, as the app shows them: each is run through the submission
 * lifecycle, stops at review until the artist starts the render (or discards it), and reports its
 * phase, transfers and jobs as app events.
 */
export class HostSubmissions {
  readonly #deps: HostSubmissionsDeps;
  readonly #all = new Map<string, TrackedSubmission>();
  #closed = false;

  constructor(deps: HostSubmissionsDeps) {
    this.#deps = deps;
  }

  /** Continues the profile's unfinished submissions; one another Renderdrop is continuing is left to it without a word. */
  resume(records: readonly SubmissionRecord[]): void {
    for (const record of records) if (!isFinished(record)) this.#launch(this.#track(record, false), { leaveIfBusy: true });
  }

  /**
   * Records and starts one submission per file (a file that fails its checks is answered on its own).
   * A zip that holds several scenes is uploaded meanwhile and waits for `chooseScene`, unless
   * `scenePath` names its scene.
   */
  async submit(files: { path: string; name: string }[], renderConfig?: RenderConfig, scenePath?: string, options: { review?: boolean } = {}): Promise<SubmitFileResult[]> {
    const results: SubmitFileResult[] = [];
    for (const file of files) {
      try {
        const project = await this.#projectRoots().forScene(file.path);
        const { record } = await recordForFile(this.#deps.journal, {
          filePath: file.path,
          baseUrl: this.#deps.client.baseUrl,
          profileId: this.#deps.profileId,
          renderConfig: renderConfig ?? null,
          download: { wanted: this.#deps.autoDownload(), dir: null, root: this.#deps.downloadRoot() },
          ...(scenePath !== undefined ? { scenePath } : {}),
          ...(project !== null ? { project } : {}),
        });
        const tracked = this.#track(record, renderConfig !== undefined && options.review !== true);
        tracked.again = options.review === true && renderConfig !== undefined;
        this.#launch(tracked);
        results.push({ ok: true, name: file.name, submissionId: record.id });
      } catch (error) {
        results.push({ ok: false, name: file.name, error: serializeError(error) });
      }
    }
    return results;
  }

  /** The project folders remembered per scene (`--project`, the review's choice), in the settings folder. */
  #projectRoots(): ProjectRoots {
    return new ProjectRoots(dirname(this.#deps.journal.dir));
  }

  /** Submissions of this session that are not dismissed. */
  list(): SubmissionView[] {
    return [...this.#all.values()].map(toSubmissionView);
  }

  /**
   * What validation detected and the settings to start from (see {@link reviewSheetOf}), with the
   * Blender versions the profile's node has now (a farm that does not list them offers no choice).
   */
  async review(submissionId: string): Promise<ReviewSheet> {
    const tracked = this.#require(submissionId);
    if (!tracked.proposal) throw new InvalidStateError(`${tracked.record.file.name} is not waiting for review (it is ${toSubmissionView(tracked).phase}).`);
    const farm = await this.#farmWorkers();
    const proposal = tracked.proposal;
    if (!proposal) throw new InvalidStateError(`${tracked.record.file.name} is no longer waiting for review.`);
    const sheet = reviewSheetOf(submissionId, { ...tracked, proposal }, this.#deps, farm?.blenderVersions ?? null, studioChoiceOf(farm));
    const job = await this.#deps.client.getJob(proposal.job.id, { signal: AbortSignal.timeout(5000), retry: { transientRetries: 0 } }).catch(() => null);
    const measured = job ? nodeEstimateOf(job) : null;
    return measured ? { ...sheet, nodeEstimate: measured } : sheet;
  }

  /** The profile's node's worker list (`GET /node/workers`: its Blender versions, worker tags); null when it does not answer within a few seconds. */
  async #farmWorkers(): Promise<NodeWorkers | null> {
    return this.#deps.client.getNodeWorkers({ signal: AbortSignal.timeout(5000), retry: { transientRetries: 0 } }).catch(() => null);
  }

  /** Starts the render of a reviewed submission with the artist's settings, and remembers them. */
  async startRender(submissionId: string, config: RenderConfig): Promise<SubmissionView> {
    const tracked = this.#require(submissionId);
    if (!tracked.proposal) throw new InvalidStateError(`${tracked.record.file.name} is not waiting for review.`);
    await this.#deps.prefs.rememberSettings(tracked.record.file.name, config);
    tracked.proposal = null;
    tracked.awaitingReview = false;
    tracked.running = true;
    this.#emit(tracked);
    void this.#drive(tracked, async (claimed) => {
      await claimed.advance({ until: 'done', renderConfig: config, signal: tracked.abort.signal });
    });
    return toSubmissionView(tracked);
  }

  /**
   * Records which scene of a zip that holds several renders, and lets the submission go on: at once
   * when it was waiting for the choice, else when its upload ends (the upload is never repeated).
   */
  async chooseScene(submissionId: string, scenePath: string): Promise<SubmissionView> {
    const tracked = this.#require(submissionId);
    if (scenesToChooseFrom(tracked.record) === null) throw new InvalidStateError(`${tracked.record.file.name} has no scene left to choose.`);
    const held = tracked.claimed;
    const claimed = held ?? (await this.#claim(tracked));
    try {
      tracked.record = await claimed.chooseScene(scenePath);
    } catch (error) {
      if (!held && !tracked.running) this.#release(tracked);
      throw error;
    }
    if (tracked.running) this.#emit(tracked);
    else if (tracked.error === null) this.#launch(tracked);
    else {
      this.#release(tracked);
      this.#emit(tracked);
    }
    return toSubmissionView(tracked);
  }

  /**
   * Sends a held submission on, without the files it misses (packing what exists). Files held at the
   * edge of its project travel only with `privateFiles: 'send'`; otherwise they are left out. `project`
   * (only the folder the card offered) becomes the scene's project, remembered for it: the files held
   * for lying outside the old project and inside it travel, secret and hard-linked ones do not.
   */
  async continue(submissionId: string, privateFiles: 'send' | 'leave-out' = 'leave-out', project?: string): Promise<SubmissionView> {
    const tracked = this.#require(submissionId);
    if (!tracked.heldForMissing) throw new InvalidStateError(`${tracked.record.file.name} is not waiting for a decision about missing files.`);
    const held = leftOutFiles(tracked.record.packing?.privateFiles);
    let allow = privateFiles === 'send' ? held.map((file) => file.path) : [];
    if (project !== undefined) {
      if (project !== suggestedProject(tracked.record)) throw new InvalidStateError(`${project} is not the project Renderdrop offered for ${tracked.record.file.name}.`);
      await this.#projectRoots().remember(tracked.record.file.path, project);
      allow = [...new Set([...allow, ...held.filter((file) => file.held === 'outside' && isWithin(file.path, project)).map((file) => file.path)])];
    }
    if (allow.length > 0) {
      const claimed = tracked.claimed ?? (await this.#claim(tracked));
      tracked.record = await claimed.allowOutside(allow);
    }
    tracked.heldForMissing = false;
    tracked.filesAccepted = true;
    this.#launch(tracked);
    return toSubmissionView(tracked);
  }

  /**
   * Drops a submission: held for missing files, nothing was sent; at review nothing is rendered and its
   * job is canceled on the server and removed from the list; waiting for its scene to be chosen it ends there; else its run stops.
   */
  async discard(submissionId: string): Promise<SubmissionView> {
    const tracked = this.#require(submissionId);
    const claimed = tracked.claimed;
    if (claimed && awaitsDecision(claimed.record)) {
      try {
        tracked.record = await claimed.decline();
      } finally {
        this.#release(tracked);
      }
    } else if ((tracked.proposal || tracked.heldForMissing) && claimed) {
      const jobId = tracked.proposal?.job.id ?? null;
      tracked.proposal = null;
      tracked.awaitingReview = false;
      tracked.heldForMissing = false;
      try {
        tracked.record = await claimed.decline();
      } finally {
        this.#release(tracked);
      }
      if (jobId !== null) {
        await this.#deps.client.cancelJob(jobId).catch(() => null);
        await this.#deps.jobs.hide([jobId]);
      }
    } else {
      tracked.abort.abort();
    }
    this.#emit(tracked);
    return toSubmissionView(tracked);
  }

  /** Runs a stopped submission again from its last recorded step. */
  retry(submissionId: string): SubmissionView {
    const tracked = this.#require(submissionId);
    if (tracked.running) return toSubmissionView(tracked);
    if (tracked.record.ending !== null) throw new InvalidStateError(`${tracked.record.file.name} has ended; submit it again instead.`);
    tracked.error = null;
    tracked.abort = new AbortController();
    this.#launch(tracked);
    return toSubmissionView(tracked);
  }

  /**
   * Forgets a submission that is not running. Its journal record stays while work is left, and while
   * it made a job (the queue's "Submit again" finds the scene file through it, after a restart too).
   */
  async dismiss(submissionId: string): Promise<boolean> {
    const tracked = this.#all.get(submissionId);
    if (!tracked) return false;
    if (tracked.running && tracked.record.ending === null) throw new InvalidStateError(`${tracked.record.file.name} is still being sent; wait or discard it.`);
    tracked.abort.abort();
    this.#release(tracked);
    this.#all.delete(submissionId);
    if (tracked.record.jobId === null) {
      await this.#deps.journal.remove(submissionId);
      await this.#deps.releaseFile(tracked.record.file.path);
    }
    this.#deps.events.emit('submission.removed', { id: submissionId });
    return true;
  }

  /**
   * Sends a job's scene file again and stops at review with the settings the job was rendered with
   * (frames, overrides, camera, view layer): nothing renders until the artist starts it.
   */
  async submitAgain(jobId: string): Promise<SubmitFileResult> {
    const record = this.#deps.submitted.get(jobId);
    const job = record ? await this.#deps.client.getJob(jobId) : null;
    const plan = await planSubmitAgain({ record, staged: record !== null && this.#deps.isStaged(record.file.path), requestedConfig: job?.requestedConfig });
    const [result] = await this.submit([plan.file], plan.renderConfig, plan.scenePath, { review: true });
    return result!;
  }

  /** Starts a recorded submission (missing frames): renders at once, not asking again about missing files. */
  startRecorded(record: SubmissionRecord): SubmitFileResult {
    const tracked = this.#track(record, true);
    tracked.filesAccepted = true;
    this.#launch(tracked);
    return { ok: true, name: record.file.name, submissionId: record.id };
  }

  /** Whether a submission of this session is driving the job right now (it downloads it itself). */
  isDriving(jobId: string): boolean {
    return [...this.#all.values()].some((t) => t.record.jobId === jobId && t.running);
  }

  /** The submission waiting at review for this job, if any. */
  awaitingReview(jobId: string): string | null {
    return [...this.#all.values()].find((t) => t.record.jobId === jobId && t.proposal !== null)?.record.id ?? null;
  }

  /** Stops every run; journal records stay resumable. */
  close(): void {
    this.#closed = true;
    for (const tracked of this.#all.values()) {
      tracked.abort.abort();
      if (!tracked.running) this.#release(tracked);
    }
  }

  #track(record: SubmissionRecord, autoStart: boolean): TrackedSubmission {
    const tracked = trackedSubmission(record, autoStart, this.#deps.isStaged(record.file.path) ? 'stored' : 'disk');
    this.#all.set(record.id, tracked);
    return tracked;
  }

  /** Starts (or restarts) a submission's run in the background ({@link runSubmission}). */
  #launch(tracked: TrackedSubmission, options: { leaveIfBusy?: boolean } = {}) {
    tracked.running = true;
    this.#emit(tracked);
    void this.#drive(tracked, (claimed) => runSubmission(tracked, claimed, this.#deps.jobs), options);
  }

  /**
   * Claims the submission when needed, runs `work`, and shows where it stopped. `hold` (review) and
   * `decide` (waiting for the scene of a zip) keep the claim; a decision that arrived while the run
   * was stopping for it starts the run again.
   */
  async #drive(tracked: TrackedSubmission, work: (claimed: ClaimedSubmission) => Promise<'hold' | 'decide' | void>, options: { leaveIfBusy?: boolean } = {}): Promise<void> {
    const id = tracked.record.id;
    try {
      const claimed = tracked.claimed ?? (await this.#claim(tracked));
      const outcome = await work(claimed);
      tracked.record = claimed.record;
      tracked.running = false;
      if (outcome === 'decide' && !isFinished(tracked.record) && !awaitsDecision(tracked.record)) {
        this.#launch(tracked);
        return;
      }
      if (outcome === undefined) this.#release(tracked);
      const { jobId, downloadedTo } = tracked.record;
      if (tracked.record.step === 'downloaded' && jobId && downloadedTo) this.#deps.downloads.done(jobId, downloadedTo);
      this.#emit(tracked);
    } catch (error) {
      this.#release(tracked);
      tracked.running = false;
      if (isAbort(error) && this.#closed) return;
      if (options.leaveIfBusy && error instanceof SubmissionBusyError && this.#all.get(id) === tracked) {
        this.#all.delete(id);
        this.#deps.events.emit('submission.removed', { id });
        return;
      }
      tracked.error = serializeError(error);
      if (tracked.record.step === 'completed' && tracked.record.jobId) this.#deps.downloads.failed(tracked.record.jobId, tracked.error.message);
      this.#emit(tracked);
    }
  }

  #claim(tracked: TrackedSubmission): Promise<ClaimedSubmission> {
    return claimSubmission(tracked, this.#deps, (t) => this.#emit(t));
  }

  #release(tracked: TrackedSubmission) {
    tracked.claimed?.release();
    tracked.claimed = null;
  }

  #emit(tracked: TrackedSubmission) {
    if (this.#all.get(tracked.record.id) !== tracked) return;
    this.#deps.events.emit('submission.updated', toSubmissionView(tracked));
  }

  #require(id: string): TrackedSubmission {
    const tracked = this.#all.get(id);
    if (!tracked) throw new NotFoundError('That submission is no longer known. Drop the file again.');
    return tracked;
  }
}
