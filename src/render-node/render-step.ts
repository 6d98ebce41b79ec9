import { mkdir } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { Logger } from 'pino';
import type { FailedReason } from '../shared/api';
import type { JobRecord, JobsRepo } from './jobs-repo';
import type { RenderPlan } from './render-plan';
import type { RenderEvent } from './blender/event-lines';
import { startRender, type RenderResult } from './blender/render';
import { withoutDirectories } from './blender/analyze';
import { acceptFrame, removeIncompleteFrames } from './frames/frame-acceptance';
import { diskFullReason, freeBytes, isDiskFullError, notEnoughSpaceReason } from './disk-space';
import { estimateRenderBytes } from './output-estimate';

/** What a render step needs from the node. */
export interface RenderStepDeps {
  jobs: JobsRepo;
  log: Logger;
  blenderPath: string;
  /** The job's scene folder (the uploaded files): the scene's paths leading outside it are cut off. */
  sceneRoot: string;
  /** Environment of Blender (its temp folder inside the node's data folder). */
  env: NodeJS.ProcessEnv;
  /** Scratch folder of the run (plan file). */
  tempDir: string;
  /** Disk space kept free beyond a render's estimated output (database, preview). */
  headroomBytes: number;
  jobTimeLimitMs: number;
  /** Told Blender's process id. */
  onSpawn: (pid: number) => void;
  /** Asked after each frame: give the slot to another key's render now? */
  shouldYield: () => boolean;
}

/** How one render run ended. */
export type RenderOutcome =
  | { kind: 'rendered' }
  | { kind: 'failed'; reason: FailedReason }
  | { kind: 'yielded' }
  | { kind: 'aborted' };

type StopCause = { kind: 'yield' } | { kind: 'time' } | { kind: 'rejected'; frame: number; reason: string } | { kind: 'error'; error: unknown };

function formatDuration(ms: number): string {
  if (ms >= 3600_000) return `${Math.round((ms / 3600_000) * 10) / 10} h`;
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

function timeLimitReason(limitMs: number, done: number, total: number): FailedReason {
  return {
    name: 'TimeLimitExceeded',
    type: 'limit',
    message: `The render took longer than this render node allows for one job (${formatDuration(limitMs)}); ${done} of ${total} frames were rendered and can be downloaded. Render the other frames in a new job.`,
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
export async function runRenderStep(deps: RenderStepDeps, job: JobRecord, signal: AbortSignal): Promise<RenderOutcome> {
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
  const timer = setTimeout(() => stopFor({ kind: 'time' }), budgetMs);
  const planned = new Set(plan.frames);
  const outputRoot = resolve(plan.outputDir) + sep;

  const handle = async (ev: RenderEvent): Promise<void> => {
    if (ev.event === 'ready') {
      deps.jobs.transition(job.id, ['booting'], 'rendering');
      return;
    }
    if (ev.event !== 'frame') return;
    if (!planned.has(ev.frame) || !resolve(ev.path).startsWith(outputRoot)) {
      deps.log.warn({ jobId: job.id, frame: ev.frame }, 'ignoring a frame report outside the plan or the output folder');
      return;
    }
    deps.jobs.transition(job.id, ['booting'], 'rendering');
    const accepted = await acceptFrame(deps.jobs, { jobId: job.id, frame: ev.frame, path: ev.path, seconds: ev.skipped ? 0 : ev.seconds });
    if (!accepted.accepted) return stopFor({ kind: 'rejected', frame: ev.frame, reason: accepted.reason });
    if (deps.shouldYield()) stopFor({ kind: 'yield' });
  };
  let events = Promise.resolve();
  let result: RenderResult;
  try {
    const started = startRender({
      blenderPath: deps.blenderPath,
      scenePath,
      sceneRoot: deps.sceneRoot,
      plan,
      env: deps.env,
      tempDir: deps.tempDir,
      signal: stop.signal,
      onEvent: (ev) => {
        events = events.then(() => (cause ? undefined : handle(ev))).catch((error: unknown) => stopFor({ kind: 'error', error }));
      },
    });
    deps.onSpawn(started.pid);
    result = await started.done;
    await events;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) return { kind: 'aborted' };
  return judge(deps, job, plan, result, cause);
}

/** Turn how Blender ended, and why the node stopped it, into the step's outcome. */
async function judge(deps: RenderStepDeps, job: JobRecord, plan: RenderPlan, result: RenderResult, cause: StopCause | null): Promise<RenderOutcome> {
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
  if (isDiskFullError(result.error) || isDiskFullError(result.stderrTail) || (await lowOnSpace())) {
    return { kind: 'failed', reason: diskFullReason(`${missing.length} of ${plan.frames.length} frames could not be written`) };
  }
  const tail = result.stderrTail.trim().split('\n').slice(-3).map(withoutDirectories).join(' | ');
  return {
    kind: 'failed',
    reason: {
      name: 'RenderFailed',
      type: 'render',
      message: `Blender stopped (exit code ${result.exitCode}) with ${missing.length} of ${plan.frames.length} frames not written${tail ? `: ${tail}` : ''}.`,
    },
  };
}
