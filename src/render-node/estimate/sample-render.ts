import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startRender, type BlenderRenderPlan, type RenderStep } from '../blender';
import { sampleFrames, type SampleMeasure } from './sample-model';

/** The scene a sample render times, and how the node runs Blender. */
export interface SampleScene {
  blenderPath: string;
  scenePath: string;
  sceneRoot: string;
  engine: string;
  /** The frames the scene renders by default, in order. */
  frames: readonly number[];
  resolution: readonly [number, number];
  resolutionPercentage: number;
  samples: number | null;
  env: NodeJS.ProcessEnv;
  tempDir: string;
  threads: number | null;
  scenePython: boolean;
  /**
   * The plan the job would render with at the scene's settings (camera, view layer, engine as the node
   * renders it, denoising, device, file format, colour management, a preview per frame): the sample
   * renders the same, only smaller, to its own folder. Null: the scene's own settings.
   */
  plan?: BlenderRenderPlan | null;
}

/** The lowest priority a process can ask for: the sample renders give way to every render. */
const NICE = 19;
/** The smaller size renders at least this many pixels across. */
const MIN_WIDTH = 48;
/** Samples rise this many times from one level of the ladder to the next. */
const LADDER_STEP = 4;
/** The most samples the ladder goes to when the scene's own samples cost too little to measure. */
const LADDER_MOST = 4096;
/** A level of the ladder this much dearer than its first (and at least {@link MEASURABLE_SECONDS}) measures the cost of samples well. */
const MEASURABLE_SECONDS = 0.25;
const MEASURABLE_SHARE = 0.3;
/** A further level is not rendered when it would cost more than this share of the job's render time (or {@link LEVEL_FLOOR_SECONDS}). */
const LEVEL_BUDGET_SHARE = 0.02;
const LEVEL_FLOOR_SECONDS = 3;
/** A sample render stops after this long (at the lowest priority on a busy node it may crawl); the job then has no estimate. */
const RUN_LIMIT_MS = 10 * 60_000;
/** Pixels are timed over a span of at least this many times across: a render narrower than it is also timed this much wider than the small size. */
const WIDE_FACTOR = 4;
const WIDE_WIDTH = 2 * WIDE_FACTOR * MIN_WIDTH;

type Size = { percentage: number; samples: number | null };

/** The small size of a sample render: a quarter of the scene's width (at least {@link MIN_WIDTH} px) with the fewest samples. */
export function smallSize(scene: Pick<SampleScene, 'resolution' | 'resolutionPercentage' | 'samples'>): Size {
  const full = scene.resolutionPercentage;
  const least = Math.ceil((MIN_WIDTH * 100) / Math.max(1, scene.resolution[0]));
  return { percentage: Math.min(full, Math.max(1, Math.round(full / 4), least)), samples: scene.samples === null ? null : 1 };
}

/**
 * The samples of the ladder at the render's pixels: 1, then {@link LADDER_STEP} times more each level up
 * to the scene's own, then on up to {@link LADDER_MOST} (taken only while the cost of samples is not yet
 * measurable and a level stays cheap, see {@link ladderDone}); one level (null) for an engine without samples.
 */
export function ladderSamples(samples: number | null): (number | null)[] {
  if (samples === null) return [null];
  const levels: number[] = [];
  for (let s = 1; s < samples; s *= LADDER_STEP) levels.push(s);
  levels.push(Math.max(1, samples));
  for (let s = Math.max(1, samples) * LADDER_STEP; s <= LADDER_MOST; s *= LADDER_STEP) levels.push(s);
  return levels;
}

/**
 * Whether the ladder has measured enough after its latest level (each level's timed frame's seconds):
 * the latest is measurably dearer than the first and at or beyond the scene's samples, or the next level
 * (`perLevel` frames at its samples) would cost more than its budget: a small share of the job's render
 * time as the levels so far price it, and at least {@link LEVEL_FLOOR_SECONDS} a frame.
 */
export function ladderDone(levels: readonly { samples: number; seconds: number }[], next: number | null, job: { frames: number; samples: number; perLevel?: number }): boolean {
  if (next === null) return true;
  const first = levels[0];
  const last = levels[levels.length - 1];
  if (!first || !last) return false;
  const rise = last.seconds - first.seconds;
  const measurable = levels.length >= 2 && rise >= Math.max(MEASURABLE_SECONDS, MEASURABLE_SHARE * first.seconds);
  if (measurable && last.samples >= job.samples) return true;
  const perSample = measurable ? rise / (last.samples - first.samples) : null;
  const at = (samples: number) => (perSample === null ? Math.max(first.seconds, last.seconds) * (samples > last.samples ? LADDER_STEP : 1) : first.seconds + perSample * (samples - first.samples));
  const perLevel = Math.max(1, job.perLevel ?? 1);
  return at(next) > Math.max(LEVEL_FLOOR_SECONDS, (LEVEL_BUDGET_SHARE * job.frames * Math.max(last.seconds, at(job.samples))) / perLevel);
}

/** How long a process's threads have run on a CPU and waited for one so far (from /proc, in seconds); null where there is none. */
function cpuTimesOf(pid: number): { run: number; wait: number } | null {
  if (pid <= 0) return null;
  try {
    let run = 0;
    let wait = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const [ran, waited] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ').map(Number);
      run += (ran ?? 0) / 1e9;
      wait += (waited ?? 0) / 1e9;
    }
    return { run, wait };
  } catch {
    return null;
  }
}

/**
 * A sampled frame's time as it would be with the node to itself: the sample runs at the lowest
 * priority, so its threads wait for a CPU whenever something else runs; the share of their time they
 * spent waiting is taken off its wall time (all of it for threads rendering side by side, the main
 * thread's for work it does alone). The wall time where the kernel does not say.
 */
function frameSeconds(wall: number, delta: { run: number; wait: number } | null): number {
  if (!delta || delta.run <= 0) return wall;
  return wall * (delta.run / (delta.run + Math.max(0, delta.wait)));
}

/**
 * The Blender plan of a sample render: the job's plan with its frames replaced by the sample's steps and
 * its files by the sample's own (frames and previews in `outputDir`, no video or shot preview), so a
 * sampled frame costs what a frame of the job costs at that size, saving and preview included.
 */
export function samplePlanOf(base: BlenderRenderPlan | null | undefined, run: { steps: RenderStep[]; outputDir: string; threads: number | null; scenePython: boolean }): BlenderRenderPlan {
  const common = {
    frames: run.steps.map((s) => s.frame),
    steps: run.steps,
    outputDir: run.outputDir,
    fileNamePattern: 'sample_####',
    threads: run.threads,
    scenePython: run.scenePython,
  };
  if (!base) return { ...common, outputFormat: 'PNG' };
  return { ...base, ...common, previewPath: null, compositeOutputDir: join(run.outputDir, 'composite'), previewDir: base.previewDir ? join(run.outputDir, 'previews') : null };
}

const pixels = (resolution: readonly [number, number], percentage: number) => [Math.max(1, Math.floor((resolution[0] * percentage) / 100)), Math.max(1, Math.floor((resolution[1] * percentage) / 100))] as const;

const sizeOf = (scene: Pick<SampleScene, 'resolution'>, size: Size) => {
  const [width, height] = pixels(scene.resolution, size.percentage);
  return { width, height };
};

/**
 * The steps of a sample render: the spread frames at the small size; the timed frame at half the
 * render's width, or wide when the render is too narrow to time pixels against the small size (both
 * with the fewest samples); then at the render's pixels, level by level up the ladder of samples, the
 * first frame, the timed one and the last.
 */
export function sampleSteps(scene: SampleScene) {
  const picked = sampleFrames(scene.frames);
  const small = smallSize(scene);
  const ladder = ladderSamples(scene.samples);
  const smallPixels = sizeOf(scene, small);
  const fullPixels = sizeOf(scene, { percentage: scene.resolutionPercentage, samples: null });
  const narrow = fullPixels.width < WIDE_FACTOR * smallPixels.width;
  const percentage = narrow ? Math.ceil((scene.resolutionPercentage * WIDE_WIDTH) / fullPixels.width) : Math.round(scene.resolutionPercentage / 2);
  const between = { ...sizeOf(scene, { percentage, samples: null }), samples: ladder[0] ?? null, narrow };
  // No step renders the frame of the step before it: Blender would not prepare it again (its modifiers,
  // its scene data), and a frame of the render always is.
  const levelFrames = [...picked.ends.slice(0, 1), picked.timed, ...picked.ends.slice(1)];
  const steps: RenderStep[] = [
    ...picked.order.map((frame) => ({ frame, resolutionPercentage: small.percentage, samples: small.samples })),
    { frame: picked.timed, resolutionPercentage: percentage, samples: between.samples },
    ...ladder.flatMap((samples) => levelFrames.map((frame) => ({ frame, resolutionPercentage: scene.resolutionPercentage, samples }))),
  ];
  return { picked, small, smallPixels, fullPixels, between, ladder, levelFrames, timedAt: levelFrames.indexOf(picked.timed), steps, beforeLadder: picked.order.length + 1 };
}

/**
 * A sample render of a scene, in one Blender run at the lowest priority: its middle frame (a warm-up),
 * the one after the middle, the first and the last at a small size with the fewest samples, the one
 * after the middle at half the render's width, then the first, it and the last at the render's pixels
 * with samples rising 1, 4, 16 … up to the scene's, stopped early once the cost of samples is measured
 * and a further level would cost more than a small share of the job ({@link ladderDone}).
 * Each frame is timed from Blender's own events (the first from Blender being ready, the next from the
 * frame before), less the time its threads waited for a CPU. Null when stopped (`signal`), when Blender
 * failed or when the small frames did not all render.
 */
export async function runSampleRender(scene: SampleScene, signal: AbortSignal): Promise<SampleMeasure | null> {
  if (scene.frames.length === 0) return null;
  const { picked, small, smallPixels, fullPixels, between, ladder, levelFrames, timedAt, steps, beforeLadder } = sampleSteps(scene);
  await mkdir(scene.tempDir, { recursive: true });
  const outputDir = await mkdtemp(join(scene.tempDir, 'frames-'));
  const enough = new AbortController();
  const started = performance.now();
  let last = started;
  let lastCpu: { run: number; wait: number } | null = null;
  let pid = 0;
  let startup = 0;
  let lastFrameAt = 0;
  const timed: number[] = [];
  /** The ladder's levels rendered whole: each one's samples and its frames' seconds (as {@link levelFrames}). */
  const levels = () =>
    ladder
      .map((samples, i) => ({ samples, seconds: timed.slice(beforeLadder + i * levelFrames.length, beforeLadder + (i + 1) * levelFrames.length) }))
      .filter((level) => level.seconds.length === levelFrames.length);
  try {
    const run = startRender({
      blenderPath: scene.blenderPath,
      scenePath: scene.scenePath,
      sceneRoot: scene.sceneRoot,
      plan: samplePlanOf(scene.plan, { steps, outputDir, threads: scene.threads, scenePython: scene.scenePython }),
      env: scene.env,
      tempDir: scene.tempDir,
      signal: AbortSignal.any([signal, enough.signal, AbortSignal.timeout(RUN_LIMIT_MS)]),
      graceMs: 500,
      onEvent: (event) => {
        const at = performance.now();
        const cpu = cpuTimesOf(pid);
        if (event.event === 'ready') startup = (at - started) / 1000;
        else if (event.event === 'frame' && !event.skipped) {
          timed.push(frameSeconds((at - last) / 1000, cpu && lastCpu ? { run: cpu.run - lastCpu.run, wait: cpu.wait - lastCpu.wait } : null));
          lastFrameAt = at;
          const whole = levels();
          const next = ladder[whole.length];
          const levelEnded = timed.length === beforeLadder + whole.length * levelFrames.length;
          const sofar = whole.map((level) => ({ samples: level.samples ?? 1, seconds: level.seconds[timedAt]! }));
          if (scene.samples !== null && levelEnded && whole.length > 0 && next !== undefined && next !== null && ladderDone(sofar, next, { frames: scene.frames.length, samples: scene.samples, perLevel: levelFrames.length })) enough.abort();
        }
        if (event.event === 'ready' || event.event === 'frame') {
          last = at;
          lastCpu = cpu;
        }
      },
    });
    pid = run.pid;
    try {
      setPriority(run.pid, NICE);
    } catch {
      // Blender may already have ended; its result says so.
    }
    const result = await run.done;
    const ended = (performance.now() - lastFrameAt) / 1000;
    const whole = levels();
    if (signal.aborted || whole.length === 0) return null;
    if (!enough.signal.aborted && (result.aborted || result.exitCode !== 0 || timed.length !== steps.length)) return null;
    const smallTimed = picked.order.map((frame, i) => ({ frame, seconds: timed[i]! }));
    const smallFrames = smallTimed.length > 1 ? smallTimed.slice(1) : smallTimed;
    const reference = smallFrames.find((f) => f.frame === picked.timed) ?? smallFrames[0]!;
    const betweenLevel = { width: between.width, height: between.height, samples: between.samples, frames: [{ frame: picked.timed, seconds: timed[picked.order.length]! }] };
    return {
      engine: scene.engine,
      startupSeconds: startup,
      warmupSeconds: Math.max(0, smallTimed[0]!.seconds - reference.seconds),
      endSeconds: enough.signal.aborted ? 0 : Math.max(0, ended),
      small: { ...smallPixels, samples: small.samples, frames: smallFrames },
      ...(between.narrow ? { wide: betweenLevel } : { mid: betweenLevel }),
      ...(picked.ends.length > 0 ? { ends: { ...fullPixels, samples: whole.at(-1)!.samples, frames: picked.ends.map((frame) => ({ frame, seconds: whole.at(-1)!.seconds[levelFrames.indexOf(frame)]! })) } } : {}),
      ladder: whole.map((level) => ({ ...fullPixels, samples: level.samples, frames: [{ frame: picked.timed, seconds: level.seconds[timedAt]! }] })),
    };
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}
