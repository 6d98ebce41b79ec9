import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startRender, type BlenderRenderPlan } from '../blender';
import { sampleFrames, type SampleLevel, type SampleMeasure } from './sample-model';

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
}

/** The lowest priority a process can ask for: the sample render gives way to every render. */
const NICE = 19;
/** The smaller size renders at least this many pixels across. */
const MIN_WIDTH = 48;
/** What a frame at the first larger size should take, so that its time is well above the noise. */
const LARGE_FRAME_SECONDS = 0.5;
/** A frame at the first larger size that took less is sized up again (at most {@link LARGE_TRIES} runs). */
const MEASURABLE_SECONDS = 0.25;
const LARGE_TRIES = 3;
/** One Blender run of a sample stops after this long (at the lowest priority on a busy node it may crawl); the job then has no estimate. */
const RUN_LIMIT_MS = 120_000;

type Size = { percentage: number; samples: number | null };

/** The small size of a sample render: a quarter of the scene's width (at least {@link MIN_WIDTH} px) at a quarter of its samples. */
export function smallSize(scene: Pick<SampleScene, 'resolution' | 'resolutionPercentage' | 'samples'>): Size {
  const full = scene.resolutionPercentage;
  const least = Math.ceil((MIN_WIDTH * 100) / Math.max(1, scene.resolution[0]));
  return { percentage: Math.min(full, Math.max(1, Math.round(full / 4), least)), samples: scene.samples === null ? null : Math.max(1, Math.round(scene.samples / 4)) };
}

/**
 * A larger size than `from`, from what a frame took at it: at least 4 times its pixels x samples, so a
 * frame takes about {@link LARGE_FRAME_SECONDS} if its time grew in proportion (it grows less, so this
 * bounds its cost; at most 1024 times from the small size, 16 times on a retry). From the small size
 * pixels grow twice as wide, the rest in samples; pixels only for
 * an engine without samples.
 */
export function largeSize(from: Size, seconds: number, first = true): Size {
  const factor = Math.min(first ? 1024 : 16, Math.max(4, LARGE_FRAME_SECONDS / Math.max(0.0005, seconds)));
  if (from.samples === null) return { percentage: Math.min(1000, Math.round(from.percentage * Math.sqrt(factor))), samples: null };
  const wider = first ? 2 : 1;
  return { percentage: Math.min(1000, from.percentage * wider), samples: Math.min(1_000_000, Math.max(from.samples, Math.round((from.samples * factor) / (wider * wider)))) };
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

const pixels = (resolution: readonly [number, number], percentage: number) => [Math.max(1, Math.floor((resolution[0] * percentage) / 100)), Math.max(1, Math.floor((resolution[1] * percentage) / 100))] as const;

/**
 * One Blender run of a sample: `frames` at `size`, each timed from Blender's own events (the first from
 * Blender being ready, the next from the frame before), at the lowest priority. Null when it was
 * stopped or did not render every frame.
 */
async function timeRun(scene: SampleScene, frames: number[], size: Size, signal: AbortSignal): Promise<{ level: SampleLevel; startup: number } | null> {
  await mkdir(scene.tempDir, { recursive: true });
  const outputDir = await mkdtemp(join(scene.tempDir, 'frames-'));
  const [width, height] = pixels(scene.resolution, size.percentage);
  const plan: BlenderRenderPlan = {
    frames,
    outputDir,
    fileNamePattern: 'sample_####',
    outputFormat: 'PNG',
    resolutionPercentage: size.percentage,
    samples: size.samples,
    threads: scene.threads,
    scenePython: scene.scenePython,
  };
  const started = performance.now();
  let last = started;
  let lastCpu: { run: number; wait: number } | null = null;
  let pid = 0;
  let startup = 0;
  const timed: { frame: number; seconds: number }[] = [];
  try {
    const run = startRender({
      blenderPath: scene.blenderPath,
      scenePath: scene.scenePath,
      sceneRoot: scene.sceneRoot,
      plan,
      env: scene.env,
      tempDir: scene.tempDir,
      signal: AbortSignal.any([signal, AbortSignal.timeout(RUN_LIMIT_MS)]),
      graceMs: 500,
      onEvent: (event) => {
        const at = performance.now();
        const cpu = cpuTimesOf(pid);
        if (event.event === 'ready') startup = (at - started) / 1000;
        else if (event.event === 'frame' && !event.skipped) timed.push({ frame: event.frame, seconds: frameSeconds((at - last) / 1000, cpu && lastCpu ? { run: cpu.run - lastCpu.run, wait: cpu.wait - lastCpu.wait } : null) });
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
    if (result.aborted || result.exitCode !== 0 || timed.length !== frames.length) return null;
    return { level: { width, height, samples: size.samples, frames: timed }, startup };
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}

/**
 * A sample render of a scene: its middle frame (a warm-up), first, last and the one after the middle at
 * a small size, then the middle and the one after it at a size where a frame takes about half a second
 * and at four times that (pixels x samples), so that how its time grows with pixels and samples is
 * measured on this node. Null when stopped (`signal`) or when Blender failed.
 */
export async function runSampleRender(scene: SampleScene, signal: AbortSignal): Promise<SampleMeasure | null> {
  if (scene.frames.length === 0) return null;
  const picked = sampleFrames(scene.frames);
  const small = await timeRun(scene, picked.order, smallSize(scene), signal);
  if (!small || signal.aborted) return null;
  const timedSmall = (frames: SampleLevel['frames']) => (frames.length > 1 ? frames.slice(1) : frames);
  const smallFrames = timedSmall(small.level.frames);
  const reference = smallFrames.find((f) => f.frame === picked.timed) ?? smallFrames[0]!;
  const warmup = Math.max(0, small.level.frames[0]!.seconds - reference.seconds);
  // A scene whose frames are already measurable at the small size is timed at one larger size only.
  const heavy = reference.seconds >= MEASURABLE_SECONDS;
  const frames = [...new Set([picked.warmup, picked.timed])];
  const timedOf = (level: SampleLevel): SampleLevel => ({ ...level, frames: timedSmall(level.frames) });
  let size = heavy ? smallSize(scene) : largeSize(smallSize(scene), reference.seconds);
  let mid: SampleLevel | null = heavy ? { ...small.level, frames: [reference] } : null;
  for (let run = 1; !mid && run <= LARGE_TRIES; run++) {
    const ran = await timeRun(scene, frames, size, signal);
    if (!ran) return null;
    const level = timedOf(ran.level);
    if (level.frames[0]!.seconds >= MEASURABLE_SECONDS || run === LARGE_TRIES) mid = level;
    else size = largeSize(size, level.frames[0]!.seconds, false);
  }
  if (!mid) return null;
  const large = await timeRun(scene, frames, largeSize(size, LARGE_FRAME_SECONDS, false), signal);
  if (!large) return null;
  return {
    engine: scene.engine,
    startupSeconds: (small.startup + large.startup) / 2,
    warmupSeconds: warmup,
    small: { ...small.level, frames: smallFrames },
    mid,
    large: timedOf(large.level),
  };
}
