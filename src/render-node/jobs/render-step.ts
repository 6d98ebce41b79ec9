import { mkdir } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { Logger } from 'pino';
import type { FailedReason } from '../../shared/api';
import { formatDuration } from '../../shared/text';
import type { JobRecord, JobsRepo } from '../store';
import { estimateRenderBytes, renderOrderOf, type RenderPlan } from '../plan';
import type { ExecutorOutcome, RenderExecutor } from './render-executor';
import { withoutDirectories } from '../blender';
import { acceptFrame, acceptWrittenFrames, expectedFrameNames, removeIncompleteFrames } from '../frames';
import { diskFullReason, freeBytes, isDiskFullError, notEnoughSpaceReason } from '../disk';

/** What a render step needs from the node. */
export interface RenderStepDeps {
  jobs: JobsRepo;
  log: Logger;
  /** Where the frames are made: the node's own Blender, or render workers. */
  executor: RenderExecutor;
  /** The job's scene folder (the uploaded files): the scene's paths leading outside it are cut off. */
  sceneRoot: string;
  /** Disk space kept free beyond a render's estimated output (database, preview). */
  headroomBytes: number;
  jobTimeLimitMs: number;
  /** Told the process id of a Blender the node started. */
  onSpawn: (pid: number) => void;
  /** Asked after each frame: give the slot to another key's render now? */
  shouldYield: () => boolean;
  /** Told every line Blender prints (the job's log). */
  onLog?: (line: string) => void;
  /** Blender runs the scene's own Python (the node trusts its scenes): the plan handed to the executor says so. */
  runsScenePython?: boolean;
}

/**
 * How one render run of a job ended, for the runner: every frame is written (on to packaging), the job
 * failed, the render gave its slot to another key's (it continues later), or it was stopped.
 */
export type RenderStepOutcome =
  | { kind: 'rendered' }
  | { kind: 'failed'; reason: FailedReason }
  | { kind: 'yielded' }
  | { kind: 'aborted' };

type StopCause = { kind: 'yield' } | { kind: 'time' } | { kind: 'rejected'; frame: number; reason: string } | { kind: 'error'; error: unknown };

function timeLimitReason(limitMs: number, done: number, total: number): FailedReason {
  return {
    name: 'TimeLimitExceeded',
    type: 'limit',
    message: `The render took longer than this render node allows for one job (${formatDuration(limitMs / 1000)}); ${done} of ${total} frames were rendered and can be downloaded. Render the other frames in a new job.`,
  };
}

/** Whether the disk under `dir` has less than `bytes` free (unknown counts as enough). */
async function short(dir: string, bytes: number): Promise<boolean> {
  return (await freeBytes(dir).catch(() => Infinity)) < bytes;
}

/**
 * Check the disk and the time left, then run Blender on the frames of a job not yet rendered, counting
 * each frame only once its file is whole. Stops early when `signal` aborts (stop, cancel), when the
 * job's time runs out, when a frame comes out incomplete, or, after a frame, when `shouldYield` says
 * another key's render should have the slot.
 */
export async function runRenderStep(deps: RenderStepDeps, job: JobRecord, signal: AbortSignal): Promise<RenderStepOutcome> {
  const plan = job.renderPlan;
  if (!plan || !job.sceneFile?.scenePath) throw new Error(`job ${job.id} has no render plan or scene`);
  const scenePath = join(deps.sceneRoot, job.sceneFile.scenePath);
  await mkdir(plan.outputDir, { recursive: true });
  const recorded = deps.jobs.frames(job.id);
  const removed = await removeIncompleteFrames(plan.outputDir, new Set(recorded.map((f) => f.filePath)));
  if (removed.length > 0) deps.log.warn({ jobId: job.id, files: removed.length }, 'removed incomplete frame files; those frames are rendered again');
  const free = await freeBytes(plan.outputDir);
  const estimate = estimateRenderBytes(plan, plan.frames.length - recorded.length, plan.frames.length);
  if (free < (estimate ?? 0) + deps.headroomBytes) {
    return {
      kind: 'failed',
      reason: estimate === null ? diskFullReason('there is no room left for the frames') : notEnoughSpaceReason(`this render (${plan.frames.length} frames and their zip)`, estimate, free),
    };
  }
  const budgetMs = deps.jobTimeLimitMs - recorded.reduce((sum, f) => sum + f.seconds, 0) * 1000;
  if (budgetMs <= 0) return { kind: 'failed', reason: timeLimitReason(deps.jobTimeLimitMs, recorded.length, plan.frames.length) };

  const stop = new AbortController();
  let cause: StopCause | null = null;
  const stopFor = (why: StopCause) => {
    cause ??= why;
    stop.abort();
  };
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  // A cancel that came while the step checked the disk has already fired.
  if (signal.aborted) stop.abort();
  const timer = setTimeout(() => stopFor({ kind: 'time' }), budgetMs);
  const planned = new Set(plan.frames);
  const outputRoot = resolve(plan.outputDir) + sep;

  const count = async (frame: { frame: number; path: string; seconds: number; worker?: string | null }): Promise<boolean> => {
    if (!planned.has(frame.frame) || !resolve(frame.path).startsWith(outputRoot)) {
      deps.log.warn({ jobId: job.id, frame: frame.frame }, 'ignoring a frame report outside the plan or the output folder');
      return false;
    }
    deps.jobs.transition(job.id, ['booting'], 'rendering');
    const accepted = await acceptFrame(deps.jobs, { jobId: job.id, ...frame });
    if (!accepted.accepted) {
      stopFor({ kind: 'rejected', frame: frame.frame, reason: accepted.reason });
      return false;
    }
    if (deps.shouldYield()) stopFor({ kind: 'yield' });
    return true;
  };
  let events: Promise<unknown> = Promise.resolve();
  let outcome: ExecutorOutcome;
  try {
    outcome = await deps.executor.render({
      job,
      plan: { ...plan, frames: renderOrderOf(plan), ...(deps.runsScenePython === true ? { scenePython: true } : {}) },
      scenePath,
      sceneRoot: deps.sceneRoot,
      signal: stop.signal,
      onStarted: () => deps.jobs.transition(job.id, ['booting'], 'rendering'),
      onFrame: (frame) => {
        const counted = events.then(() => (cause ? false : count(frame)));
        events = counted.catch((error: unknown) => stopFor({ kind: 'error', error }));
        return counted.catch(() => false);
      },
      onPid: deps.onSpawn,
      onLog: deps.onLog,
    });
    await events;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) {
    await countFramesLeft(deps, job, plan);
    return { kind: 'aborted' };
  }
  if (!cause && outcome.kind === 'failed') return outcome;
  if (!cause && outcome.kind === 'stopped') return { kind: 'aborted' };
  return judge(deps, job, plan, outcome.kind === 'finished' ? outcome : null, cause);
}

/**
 * Count the frames Blender wrote before it was stopped that the node had not counted yet (a frame
 * moved into place just before the stop), so a canceled job lists every whole frame its folder holds.
 */
async function countFramesLeft(deps: RenderStepDeps, job: JobRecord, plan: RenderPlan): Promise<void> {
  const recorded = new Set(deps.jobs.frames(job.id).map((f) => f.frame));
  const left = plan.frames.filter((f) => !recorded.has(f));
  try {
    const counted = await acceptWrittenFrames(deps.jobs, job.id, plan.outputDir, left, (frame) => expectedFrameNames(plan.fileNamePattern, plan.outputFormat, frame));
    if (counted > 0) deps.log.info({ jobId: job.id, frames: counted }, 'counted frames written just before the render stopped');
  } catch (error) {
    deps.log.warn({ jobId: job.id, err: error instanceof Error ? error.message : String(error) }, 'could not count the frames written before the render stopped');
  }
}

/** Turn how Blender ended, and why the node stopped it, into the step's outcome. */
async function judge(
  deps: RenderStepDeps,
  job: JobRecord,
  plan: RenderPlan,
  result: { exitCode: number | null; errorTail: string; error?: string } | null,
  cause: StopCause | null,
): Promise<RenderStepOutcome> {
  const written = new Set(deps.jobs.frames(job.id).map((f) => f.frame));
  const missing = plan.frames.filter((f) => !written.has(f));
  if (missing.length === 0) return { kind: 'rendered' };
  const lowOnSpace = () => short(plan.outputDir, deps.headroomBytes);
  switch (cause?.kind) {
    case 'yield':
      return { kind: 'yielded' };
    case 'time':
      return { kind: 'failed', reason: timeLimitReason(deps.jobTimeLimitMs, written.size, plan.frames.length) };
    case 'error':
      if (isDiskFullError(cause.error)) return { kind: 'failed', reason: diskFullReason("the render's progress could not be recorded") };
      throw cause.error;
    case 'rejected':
      if (await lowOnSpace()) return { kind: 'failed', reason: diskFullReason(`frame ${cause.frame} could not be written completely`) };
      return {
        kind: 'failed',
        reason: { name: 'RenderFailed', type: 'render', message: `Blender wrote frame ${cause.frame} incompletely (${cause.reason}); it was removed.` },
      };
  }
  if (isDiskFullError(result?.error) || isDiskFullError(result?.errorTail) || (await lowOnSpace())) {
    return { kind: 'failed', reason: diskFullReason(`${missing.length} of ${plan.frames.length} frames could not be written`) };
  }
  const tail = (result?.errorTail ?? '').trim().split('\n').slice(-3).map(withoutDirectories).join(' | ');
  return {
    kind: 'failed',
    reason: {
      name: 'RenderFailed',
      type: 'render',
      message: `Blender stopped (exit code ${result?.exitCode ?? 'unknown'}) with ${missing.length} of ${plan.frames.length} frames not written${tail ? `: ${tail}` : ''}.`,
    },
  };
}
