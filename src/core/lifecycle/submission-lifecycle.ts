import { type RenderConfig, needsReview } from '../../shared/api';
import { type DownloadJobOptions, downloadJobOutputs, type DownloadJobResult } from '../download';
import { InvalidStateError, isAbort, serializeError } from '../errors';
import { isFinished, reached, type RecordLock, type SubmissionJournal, type SubmissionPatch, type SubmissionRecord } from '../journal';
import { uploadFile, type UploadOptions, type UploadResult } from '../upload';
import { type Clock, systemClock, throwIfAborted, TypedEmitter } from '../util';
import { isFinalFailure } from './final-failure';
import { endIfJobEnded } from './steps/job-ending';
import type { RenderProposal, SubmissionEvents } from './lifecycle-events';
import { LIFECYCLE_STATES, stopReached, type LifecycleStop } from './lifecycle-states';
import { proposalFor, renderConfigFor } from './render-review';
import { requireJobId } from './steps/require-fields';
import { validateBodyChoosing } from './scene-choice';
import type { StepContext, SubmissionClient } from './step-context';
import { pollingWaiter, type WaitForJob } from './wait-for-job';

/** The server, the journal and the replaceable pieces every submission of a lifecycle uses. */
export interface LifecycleOptions {
  client: SubmissionClient;
  journal: SubmissionJournal;
  /** How to wait for a job (default: polling it; the app and the CLI share a tracker). */
  waitForJob?: WaitForJob;
  /** Root under which `<scene>-<short id>/` is created when a record names no folder. */
  downloadRoot?: string;
  downloadConcurrency?: number;
  clock?: Clock;
  /** Send a Renderdrop node only the chunks of a scene it lacks (default true); false always sends the whole file. */
  chunked?: boolean;
  /** Replaceable transfer functions (tests, benchmarks). */
  upload?: (options: UploadOptions) => Promise<UploadResult>;
  download?: (options: DownloadJobOptions) => Promise<DownloadJobResult>;
}

/** How far one `advance` goes. */
export interface AdvanceOptions {
  until: LifecycleStop;
  signal?: AbortSignal;
  /** The settings to render with when the run passes review (else the recorded ones, else the default). */
  renderConfig?: RenderConfig;
}

/**
 * Runs submissions through the lifecycle (LIFECYCLE_STATES) against one server. `claim` takes a
 * submission for this process; the claimed submission then advances state by state to a stop, is
 * reviewed at `validated`, declined, or released for another run to continue later.
 */
export class SubmissionLifecycle {
  readonly #options: LifecycleOptions;

  constructor(options: LifecycleOptions) {
    this.#options = options;
  }

  /**
   * Takes the submission for this process until `release`, starting from the record as stored (so it
   * never repeats work another run did). Throws SubmissionBusyError while another run holds it.
   */
  async claim(record: SubmissionRecord): Promise<ClaimedSubmission> {
    const lock = await this.#options.journal.lock(record.id);
    try {
      const stored = await this.#options.journal.get(record.id);
      return new ClaimedSubmission(this.#options, stored ?? record, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Claims a submission, advances it to `options.until` and releases it. */
  async advance(record: SubmissionRecord, options: AdvanceOptions): Promise<SubmissionRecord> {
    if (stopReached(record, options.until)) return record;
    throwIfAborted(options.signal);
    const claimed = await this.claim(record);
    try {
      return await claimed.advance(options);
    } finally {
      claimed.release();
    }
  }
}

/**
 * A submission this process holds. Its journal step is its state; `advance` runs state after state
 * to a stop, and a failure that running again cannot fix (isFinalFailure) ends it before the error
 * is passed on. Every other failure or an abort leaves it where its last saved step put it.
 */
export class ClaimedSubmission extends TypedEmitter<SubmissionEvents> {
  #record: SubmissionRecord;
  readonly #options: LifecycleOptions;
  readonly #lock: RecordLock;
  #released = false;

  constructor(options: LifecycleOptions, record: SubmissionRecord, lock: RecordLock) {
    super();
    this.#options = options;
    this.#record = record;
    this.#lock = lock;
  }

  /** The journal record as of the last step. */
  get record(): SubmissionRecord {
    return this.#record;
  }

  /**
   * Runs the record's states until it reaches `options.until` (or finishes, or fails), or a state
   * waits for a decision (`awaitsDecision`; a zip's scene: `chooseScene`).
   */
  async advance(options: AdvanceOptions): Promise<SubmissionRecord> {
    const ctx = this.#context(options);
    while (!stopReached(this.#record, options.until)) {
      this.#requireHeld();
      throwIfAborted(options.signal);
      const { run, waits } = LIFECYCLE_STATES[this.#record.step];
      if (!run || waits?.(this.#record)) break;
      await this.#endingFinalFailures(() => run(ctx));
    }
    return this.#record;
  }

  /**
   * What review shows for a submission stopped at `validated`: the job, its analysis and the settings
   * to render with (`renderConfig`, else the recorded ones), checked against the scene. Null when the
   * job moved on meanwhile: it ended (so did the submission) or is already rendering (the record moves
   * to `render-requested`).
   */
  async review(options: { signal?: AbortSignal; renderConfig?: RenderConfig } = {}): Promise<RenderProposal | null> {
    this.#requireHeld();
    if (this.#record.step !== 'validated' || isFinished(this.#record)) {
      throw new InvalidStateError(`${this.#record.file.name} is not waiting for review.`);
    }
    const ctx = this.#context(options);
    return this.#endingFinalFailures(async () => {
      const job = await ctx.client.getJob(requireJobId(this.#record), ctx.call);
      if (await endIfJobEnded(ctx, job)) return null;
      if (!needsReview(job.status)) {
        await ctx.save({ step: 'render-requested' });
        return null;
      }
      return proposalFor(job, renderConfigFor(this.#record, options.renderConfig));
    });
  }

  /**
   * Records which scene of the zip renders (any of its `.blend` files), before validation is asked
   * for; the next `advance` goes on from there. May be called while an `advance` uploads.
   */
  async chooseScene(scenePath: string): Promise<SubmissionRecord> {
    this.#requireHeld();
    if (isFinished(this.#record)) throw new InvalidStateError(`${this.#record.file.name} has ended; submit it again to choose another scene.`);
    return this.#save({ validateBody: validateBodyChoosing(this.#record, scenePath) });
  }

  /**
   * Lets files outside the scene's folder that look private travel (absolute paths of files or of
   * folders holding them), before the bundle's content is fixed; the next `advance` packs them.
   */
  async allowOutside(paths: readonly string[]): Promise<SubmissionRecord> {
    this.#requireHeld();
    if (reached(this.#record, 'packing') || isFinished(this.#record)) throw new InvalidStateError(`${this.#record.file.name} is already packed; submit it again to choose which files travel.`);
    return this.#save({ allowOutside: [...new Set([...(this.#record.allowOutside ?? []), ...paths])] });
  }

  /** Ends the submission without rendering (the person said no). */
  async decline(): Promise<SubmissionRecord> {
    this.#requireHeld();
    if (!isFinished(this.#record)) await this.#save({ ending: 'declined' });
    return this.#record;
  }

  /** Gives the submission up, so another run (in this or another process) may continue it. */
  release(): void {
    this.#released = true;
    this.#lock.release();
  }

  async #endingFinalFailures<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!isAbort(error) && !isFinished(this.#record) && isFinalFailure(this.#record, error)) {
        const { kind, message } = serializeError(error);
        await this.#save({ ending: 'failed', error: { kind, message } }).catch(() => undefined);
      }
      throw error;
    }
  }

  #context(options: Pick<AdvanceOptions, 'signal' | 'renderConfig'>): StepContext {
    const o = this.#options;
    const clock = o.clock ?? systemClock;
    return {
      client: o.client,
      journal: o.journal,
      clock,
      wait: o.waitForJob ?? pollingWaiter(o.client),
      signal: options.signal,
      call: options.signal ? { signal: options.signal } : {},
      renderConfig: options.renderConfig,
      downloadRoot: o.downloadRoot,
      downloadConcurrency: o.downloadConcurrency,
      chunked: o.chunked ?? true,
      upload: o.upload ?? uploadFile,
      download: o.download ?? downloadJobOutputs,
      record: () => this.#record,
      save: (patch) => this.#save(patch),
      emit: (event, payload) => this.emit(event, payload),
      now: () => new Date(clock.now()).toISOString(),
    };
  }

  async #save(patch: SubmissionPatch): Promise<SubmissionRecord> {
    const before = this.#record;
    this.#record = await this.#options.journal.update(before.id, patch);
    if (this.#record.step !== before.step || this.#record.ending !== before.ending) this.emit('step', { record: this.#record });
    return this.#record;
  }

  #requireHeld() {
    if (this.#released) throw new InvalidStateError(`${this.#record.file.name} was released; claim it again to continue.`);
  }
}
