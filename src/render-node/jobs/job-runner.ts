import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type FailedReason, PRIORITY } from '../../shared/api';
import { type JobRecord, RENDER_STATUSES, RUNNER_STATUSES } from '../store';
import { isBlenderProcessAlive, killProcessTree, withTempDir } from '../blender';
import { isDiskFullError } from '../disk';
import { pickRenders, shouldYield, slotsOnWorkers, type RunningRender } from './fair-queue';
import { WaitingLine, type WaitingPlace } from './waiting-line';
import { DEFAULT_RENDER_LIMITS, farmChanges, nodeTagsNote, type RenderedBy, type Renderer, type RenderLimits } from '../plan';
import { DEFAULT_HEADROOM_BYTES, DEFAULT_RENDER_TURN_MS, type JobRunnerOptions } from './job-runner-options';
import { BLENDER_NOT_FOUND, crashFailure, VALIDATION_INTERRUPTED } from './job-failures';
import { runRenderStep } from './render-step';
import { runValidateStep } from './validate-step';
import { finalizeJob } from './finalize-step';
import type { RenderExecutor } from './render-executor';
import { EmbeddedExecutor } from './embedded-executor';
import type { BlenderRuntime } from './blender-runtime';
import { withRenderErrors } from '../logs';
import { JobEstimates } from '../estimate';

type Work = { kind: 'validate' | 'render' | 'finalize'; abort: AbortController; pid: number | null; task: Promise<void> | null; userId: string; startedAt: number };

const RETRY_MS = 30_000;
/** File in a job's folder while its validation runs; left behind only when the node died during it. */
const VALIDATION_MARK = 'validation-running';

/**
 * Runs validations and renders in the background, at most N of each at once, sharing the render
 * slots fairly between keys. The database is the queue: jobs waiting in `validating`, `booting`,
 * `rendering` or `finalizing` are picked up by `pump()`, which is also how work interrupted by a stop or
 * crash resumes on the next start. Nothing a job does (a full disk included) stops the runner: the job
 * fails with the reason, and a failure that cannot be recorded yet is retried.
 */
export class JobRunner {
  private readonly running = new Map<string, Work>();
  private readonly lastStarted = new Map<string, number>();
  /** Failures not yet recorded (the disk was full); those jobs are not started again meanwhile. */
  private readonly unrecorded = new Map<string, FailedReason>();
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly limits: RenderLimits;
  private readonly env: NodeJS.ProcessEnv;
  private readonly now: () => number;
  private readonly executor: RenderExecutor;
  private readonly line: WaitingLine;
  /** The node's render estimates (sample renders of validated jobs, what each job was estimated and took); null without a place to keep them. */
  readonly estimates: JobEstimates | null;

  constructor(private readonly o: JobRunnerOptions) {
    this.limits = o.limits ?? DEFAULT_RENDER_LIMITS;
    this.env = withTempDir(o.env ?? process.env, o.storage.tempDir);
    this.now = o.now ?? Date.now;
    this.executor = o.executor ?? new EmbeddedExecutor(o.blender, { env: this.env, tempDir: o.storage.tempDir, threads: o.threads ?? null });
    this.estimates = o.estimates
      ? new JobEstimates({ ...o, estimates: o.estimates, env: this.env, ...(this.executor.mode === 'distributed' ? { workers: () => this.executor.renderers() } : {}) })
      : null;
    this.line = new WaitingLine({ jobs: o.jobs, executor: this.executor, running: (id) => this.running.has(id), slots: (job) => (this.fitsNode(job) ? o.concurrency.renders : 0) });
  }

  /** How many renders run at once, and the Blender threads of each (null: all cores; only for the node's own Blender). */
  settings(): { renders: number; threads: number | null } {
    return { renders: this.o.concurrency.renders, threads: this.executor instanceof EmbeddedExecutor ? this.executor.threads : null };
  }

  /** The Blenders that render this node's jobs: its own, or its render workers'; null when they cannot be listed now. */
  renderers(): Promise<Renderer[] | null> {
    return this.executor.renderers();
  }

  /** Where this node's frames are made: with its own Blender, or by its render workers. */
  get renderedBy(): RenderedBy {
    return this.executor.mode === 'distributed' ? 'workers' : 'node';
  }

  /**
   * Changes how many renders run at once and the Blender threads of the node's own renders. Renders
   * already running keep theirs; queued ones start under the new limits.
   */
  configure(settings: { renders?: number; threads?: number | null }): void {
    if (settings.renders !== undefined) this.o.concurrency.renders = settings.renders;
    if (settings.threads !== undefined && this.executor instanceof EmbeddedExecutor) this.executor.threads = settings.threads;
    this.pump();
  }

  /**
   * Stop Blender processes a crashed node left behind, fail the validations it died during (never
   * replayed: the scene may be what killed it), empty the scratch folder (which holds what they and
   * their Blender left there), then start queued work. Frames they finished are kept when whole.
   */
  async start(): Promise<void> {
    for (const job of this.o.jobs.inStatus(RUNNER_STATUSES)) {
      if (job.pid && isBlenderProcessAlive(job.pid, { marker: this.o.storage.jobDir(job.id) })) {
        this.o.log.warn({ jobId: job.id, pid: job.pid }, 'stopping a Blender process left by a previous run');
        await killProcessTree(job.pid);
      }
      if (job.pid) this.record(() => this.o.jobs.patch(job.id, { pid: null }, false));
    }
    await this.failInterruptedValidations();
    await rm(this.o.storage.tempDir, { recursive: true, force: true });
    await mkdir(this.o.storage.tempDir, { recursive: true });
    await this.executor.start();
    this.pump();
  }

  /**
   * Stop all work without changing job statuses, so it resumes on the next start. Resolves once every
   * task has ended (Blender killed, packaging aborted), so the database can be closed after it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const works = [...this.running.values()];
    await Promise.allSettled(
      works.map((w) => {
        w.abort.abort(new Error('node stopping'));
        return w.pid ? killProcessTree(w.pid) : undefined;
      }),
    );
    await Promise.allSettled([...works.map((w) => w.task), this.estimates?.stop()]);
    await this.executor.stop();
  }

  /** Why a job's render waits, when its executor knows something holds it back; null otherwise. */
  statusMessage(jobId: string): string | null {
    const job = this.executor.mode === 'embedded' && !this.running.has(jobId) ? this.o.jobs.get(jobId) : null;
    return this.executor.statusMessage?.(jobId) ?? (job && (RENDER_STATUSES as readonly string[]).includes(job.status) ? nodeTagsNote(job.requires, this.o.tags ?? []) : null);
  }

  /** Whether the node may start a render: on workers always (they follow their own tags), with its own Blender when it carries every tag the render requires. */
  private fitsNode(job: JobRecord): boolean {
    return this.executor.mode !== 'embedded' || nodeTagsNote(job.requires, this.o.tags ?? []) === null;
  }

  /** Where a render that has not started stands in line, and when it starts ({@link WaitingLine}); null for other jobs. */
  waitingFor(job: Pick<JobRecord, 'id' | 'status'>): WaitingPlace | null {
    return this.line.place(job);
  }

  /** A job's priority or required tags changed (already saved): its render's waiting chunks follow them now, and the queue is ordered again. */
  async settingsChanged(job: Pick<JobRecord, 'id' | 'priority'>): Promise<void> {
    await this.executor.reprioritize?.(job.id, job.priority).catch((err: unknown) => this.o.log.warn({ jobId: job.id, err }, 'waiting chunks follow the new settings at the next check'));
    this.pump();
  }

  private validationMark(jobId: string): string {
    return join(this.o.storage.jobDir(jobId), VALIDATION_MARK);
  }

  private async failInterruptedValidations(): Promise<void> {
    for (const job of this.o.jobs.inStatus(['validating'])) {
      const mark = this.validationMark(job.id);
      if (!existsSync(mark)) continue;
      this.o.log.warn({ jobId: job.id }, 'the node stopped during this validation; failing it instead of running it again');
      this.fail(job.id, VALIDATION_INTERRUPTED);
      if (!this.unrecorded.has(job.id)) await rm(mark, { force: true });
    }
  }

  /** Whether a job currently has a process working on it. */
  isRunning(jobId: string): boolean {
    return this.running.has(jobId);
  }

  /** Start as much queued work as the concurrency limits allow; never throws. */
  pump(): void {
    if (this.stopped) return;
    try {
      this.recordFailures();
      this.o.reserve.ensure();
      this.estimates?.sweep();
      this.startQueued();
    } catch (err) {
      this.o.log.error({ err }, 'could not start queued work; trying again shortly');
      this.retryLater();
    }
  }

  /** Get the executor ready to render `frames` of a job that ended again (a requeue); pump afterwards. */
  async prepareRequeue(jobId: string, frames: readonly number[]): Promise<void> {
    await this.executor.requeue?.(jobId, frames);
  }

  /** Stop whatever runs for a job whose status has already been set to `canceled`. */
  async abort(jobId: string): Promise<void> {
    await Promise.all([this.executor.cancel(jobId), this.estimates?.cancel(jobId)]);
    const work = this.running.get(jobId);
    if (!work) return;
    work.abort.abort(new Error('canceled'));
    if (work.pid) await killProcessTree(work.pid);
  }

  private startQueued(): void {
    const idle = (job: JobRecord) => !this.running.has(job.id) && !this.unrecorded.has(job.id);
    const count = (kind: Work['kind']) => [...this.running.values()].filter((w) => w.kind === kind).length;
    for (const job of this.o.jobs.inStatus(['validating'])) {
      if (count('validate') >= this.o.concurrency.validations) break;
      if (idle(job)) this.launch(job, 'validate');
    }
    for (const job of this.o.jobs.inStatus(['finalizing'])) if (idle(job)) this.launch(job, 'finalize');
    const renders = this.o.jobs.inStatus(RENDER_STATUSES);
    const waiting = renders.filter((job) => idle(job) && this.fitsNode(job));
    const byId = new Map(waiting.map((j) => [j.id, j]));
    const running = this.runningRenders(renders);
    const slots = this.executor.mode === 'distributed' ? slotsOnWorkers(waiting, running, this.o.concurrency.renders) : this.o.concurrency.renders;
    for (const next of pickRenders(waiting, running, slots, this.lastStarted)) {
      this.launch(byId.get(next.id)!, 'render');
    }
  }

  /** The renders holding a slot, with their priority as `renders` (the records of every render) have it now. */
  private runningRenders(renders: readonly JobRecord[]): RunningRender[] {
    const priority = new Map(renders.map((j) => [j.id, j.priority]));
    return [...this.running].filter(([, w]) => w.kind === 'render').map(([id, w]) => ({ id, userId: w.userId, priority: priority.get(id) ?? PRIORITY.default, startedAt: w.startedAt }));
  }

  /** Whether a running render should give its slot now to a waiting render of a higher priority, or to another key's. */
  private shouldGiveWay(jobId: string): boolean {
    const renders = this.o.jobs.inStatus(RENDER_STATUSES);
    const running = this.runningRenders(renders);
    const me = running.find((r) => r.id === jobId);
    if (!me) return false;
    const waiting = renders.filter((j) => !this.running.has(j.id) && !this.unrecorded.has(j.id) && this.fitsNode(j));
    return shouldYield(me, waiting, running, this.now(), this.o.renderTurnMs ?? DEFAULT_RENDER_TURN_MS, this.o.concurrency.renders);
  }

  private launch(job: JobRecord, kind: Work['kind']): void {
    const work: Work = { kind, abort: new AbortController(), pid: null, task: null, userId: job.userId, startedAt: this.now() };
    this.running.set(job.id, work);
    if (kind === 'render') this.lastStarted.set(job.userId, work.startedAt);
    const task = kind === 'validate' ? this.validate(job, work) : kind === 'render' ? this.render(job, work) : this.finalize(job, work.abort.signal);
    work.task = task
      .catch((err: unknown) => {
        if (work.abort.signal.aborted) return;
        this.o.log.error({ jobId: job.id, err }, `${kind} crashed`);
        this.fail(job.id, crashFailure(kind, err));
      })
      .finally(() => {
        this.running.delete(job.id);
        if (this.stopped) return;
        if (work.pid) this.record(() => this.o.jobs.patch(job.id, { pid: null }, false));
        this.pump();
      });
  }

  /** Run a database write, giving the disk reserve up if the disk is full; false when it still failed. */
  private record(write: () => void): boolean {
    try {
      this.o.reserve.write(write);
      return true;
    } catch (err) {
      this.o.log.error({ err }, isDiskFullError(err) ? 'the disk is full: a job update could not be saved' : 'a job update could not be saved');
      return false;
    }
  }

  private fail(jobId: string, reason: FailedReason): void {
    let moved = false;
    const saved = this.record(() => {
      moved = this.o.jobs.transition(jobId, RUNNER_STATUSES, 'failed', { failedReason: reason }, reason.name) !== null;
    });
    if (!saved) {
      this.unrecorded.set(jobId, reason);
      this.retryLater();
      return;
    }
    this.unrecorded.delete(jobId);
    if (!moved) return;
    this.o.log.warn({ jobId, reason: reason.name }, 'job failed');
    this.o.logs?.section(jobId, `Failed: ${reason.message}`);
  }

  private recordFailures(): void {
    for (const [jobId, reason] of [...this.unrecorded]) this.fail(jobId, reason);
  }

  private retryLater(): void {
    if (this.retryTimer || this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.pump();
    }, RETRY_MS);
    this.retryTimer.unref();
  }

  private savePid(jobId: string, work: Work, pid: number): void {
    work.pid = pid;
    this.record(() => this.o.jobs.patch(jobId, { pid }, false));
  }

  private requireBlender(jobId: string): BlenderRuntime | null {
    if (this.o.blender) return this.o.blender;
    this.fail(jobId, BLENDER_NOT_FOUND);
    return null;
  }

  private async validate(job: JobRecord, work: Work): Promise<void> {
    const blender = this.requireBlender(job.id);
    if (!blender) return;
    const mark = this.validationMark(job.id);
    await mkdir(dirname(mark), { recursive: true });
    await writeFile(mark, '');
    try {
      await this.runValidation(job, work, blender);
    } finally {
      await rm(mark, { force: true });
    }
  }

  private async runValidation(job: JobRecord, work: Work, blender: BlenderRuntime): Promise<void> {
    const outcome = await runValidateStep(
      {
        jobs: this.o.jobs,
        blender,
        env: this.env,
        tempDir: this.o.storage.tempDir,
        analysisTimeoutMs: this.o.analysisTimeoutMs ?? 120_000,
        videoEncoders: async () => (this.o.ffmpeg ? ((await this.o.ffmpeg())?.encoders ?? null) : null),
        farmChanges: (analysis, videoEncoders) => (this.o.capabilities ? farmChanges(analysis, { ...this.o.capabilities, videoEncoders: videoEncoders ? [...videoEncoders] : null }, this.limits) : []),
        onSpawn: (pid) => this.savePid(job.id, work, pid),
        onLog: this.o.logs?.writer(job.id, '', 'Scene analysis'),
        renderers: { by: this.renderedBy, list: () => this.renderers() },
        sceneDir: this.o.storage.sceneDir(job.id),
        source: this.o.uploadPath(job.uploadSlug),
        maxExtractedBytes: this.limits.maxExtractedBytes,
        headroomBytes: this.o.headroomBytes ?? DEFAULT_HEADROOM_BYTES,
      },
      job,
      work.abort.signal,
    );
    if (outcome.kind === 'failed') this.fail(job.id, outcome.reason);
    else if (outcome.kind === 'validated') this.estimates?.validated(job.id);
  }

  private async render(job: JobRecord, work: Work): Promise<void> {
    this.o.logs?.section(job.id, this.executor.mode === 'distributed' ? 'Render on the render workers' : 'Render');
    this.estimates?.started(job.id);
    const outcome = await runRenderStep(
      {
        jobs: this.o.jobs,
        log: this.o.log,
        executor: this.executor,
        sceneRoot: this.o.storage.sceneDir(job.id),
        headroomBytes: this.o.headroomBytes ?? DEFAULT_HEADROOM_BYTES,
        jobTimeLimitMs: this.limits.jobTimeLimitMs,
        onSpawn: (pid) => this.savePid(job.id, work, pid),
        shouldYield: () => this.executor.mode === 'embedded' && this.shouldGiveWay(job.id),
        onLog: this.o.logs?.writer(job.id),
        runsScenePython: this.o.blender?.runsScenePython === true,
      },
      job,
      work.abort.signal,
    );
    if (outcome.kind === 'failed') {
      this.fail(job.id, outcome.reason);
      await this.executor.cancel(job.id);
      return;
    }
    if (outcome.kind === 'yielded') this.o.log.info({ jobId: job.id }, 'render gave its slot to a render of a higher priority or of another key; it continues later');
    if (outcome.kind !== 'rendered') return;
    // A render whose frames were all in place before it began reported none, and is still booting.
    this.o.jobs.transition(job.id, ['booting'], 'rendering');
    this.noteRenderErrors(job.id);
    const moved = this.o.jobs.transition(job.id, ['rendering'], 'finalizing');
    if (moved) await this.finalize(moved, work.abort.signal);
  }

  /** Adds Blender's errors from the render's log to the job's warnings, before it completes. */
  private noteRenderErrors(jobId: string): void {
    const job = this.o.jobs.get(jobId);
    if (!job?.analysis || !this.o.logs) return;
    const analysis = withRenderErrors(job.analysis, this.o.logs.read(jobId).text);
    if (analysis !== job.analysis) this.o.jobs.patch(jobId, { analysis }, false);
  }

  private async finalize(job: JobRecord, signal: AbortSignal): Promise<void> {
    const outcome = await finalizeJob(
      {
        jobs: this.o.jobs,
        storage: this.o.storage,
        log: this.o.log,
        blenderPath: this.o.blender?.path ?? null,
        env: this.env,
        headroomBytes: this.o.headroomBytes ?? DEFAULT_HEADROOM_BYTES,
        ffmpeg: this.o.ffmpeg ?? (async () => null),
      },
      job,
      signal,
    );
    if (outcome.kind === 'failed') return this.fail(job.id, outcome.reason);
    if (outcome.kind !== 'completed') return;
    this.estimates?.finished(job.id);
    try {
      this.o.onCompleted?.(outcome.job);
    } catch (err) {
      this.o.log.error({ jobId: job.id, err }, 'the completion of a job could not be announced');
    }
  }
}
