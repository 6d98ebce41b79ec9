import { z } from 'zod';
import { estimateWithModel, FRAME_NOISE_SECONDS, relativeSpread, type EstimateModel, type EstimateTarget } from '../../shared/render';

const timedFrameSchema = z.object({ frame: z.number().int(), seconds: z.number().nonnegative() });

/** One size a sample render was run at: its pixels, samples (null: the engine has none) and each frame's time. */
const sampleLevelSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  samples: z.number().int().positive().nullable(),
  frames: z.array(timedFrameSchema).min(1),
});
export type SampleLevel = z.infer<typeof sampleLevelSchema>;

/**
 * What a sample render measured of a scene on this node, in one Blender run: spread frames at a small
 * size with the fewest samples (how the cost of preparing a frame changes along the shot), the one
 * after the middle at a size between that and the render's (`mid`; much wider instead when the render is
 * too narrow to time pixels against the small size, `wide`), then the one after the middle at the
 * render's pixels with rising samples (`ladder`, the fewest first; one level for an engine without
 * samples), up to the scene's samples or until a further level would cost too much, each level also
 * rendering the first and last frames (`ends`, at the highest level: how the cost that grows with pixels
 * and samples changes along the shot); Blender's start-up with the scene, what its first frame costs
 * more than the next, and what it does after the last (a render pays them once).
 */
export const sampleMeasureSchema = z.object({
  engine: z.string(),
  startupSeconds: z.number().nonnegative(),
  warmupSeconds: z.number().nonnegative(),
  endSeconds: z.number().nonnegative(),
  small: sampleLevelSchema,
  wide: sampleLevelSchema.optional(),
  mid: sampleLevelSchema.optional(),
  ends: sampleLevelSchema.optional(),
  ladder: z.array(sampleLevelSchema).min(1),
});
export type SampleMeasure = z.infer<typeof sampleMeasureSchema>;

/** What a render asks for, as the estimate scales to it. */
export type RenderTarget = EstimateTarget & { engine: string };

/** A time in seconds with its likely range. */
export interface TimeRange {
  seconds: number;
  low: number;
  high: number;
}

const timedAt = (level: SampleLevel, frame: number) => (level.frames.find((f) => f.frame === frame) ?? level.frames[0]!).seconds;
const unitsOf = (level: SampleLevel) => level.width * level.height * (level.samples ?? 1);

/** The cost of one sample per pixel, from the ladder's two highest levels (the nearest the render's samples); 0 without samples. */
function perPixelSampleOf(ladder: readonly SampleLevel[]): number {
  const top = ladder[ladder.length - 1]!;
  const below = ladder.length > 1 ? ladder[ladder.length - 2]! : null;
  if (!below || top.samples === null || below.samples === null || top.samples <= below.samples) return 0;
  const rise = (top.frames[0]!.seconds - below.frames[0]!.seconds) / (unitsOf(top) - unitsOf(below));
  const overall = (top.frames[0]!.seconds - ladder[0]!.frames[0]!.seconds) / Math.max(1, unitsOf(top) - unitsOf(ladder[0]!));
  return Math.max(0, rise > 0 ? rise : overall);
}

/** A sample costs at most this many times more at the ladder's top than just below it before the top level counts as slowed by something else. */
const SAMPLE_COST_RISE = 1.3;

/**
 * The ladder with its highest level's time kept within what its samples can cost: a sample never costs
 * more per pixel with more samples (the same or less, where samples adapt), so a top level dearer per
 * sample than {@link SAMPLE_COST_RISE} times the levels below it was slowed by other work on the node
 * for a moment; its time is taken as the levels below price it. The model passes through the top
 * level, so one slowed frame there would otherwise price the whole render higher.
 */
function steadiedLadder(ladder: SampleLevel[]): SampleLevel[] {
  if (ladder.length < 3) return ladder;
  const [a, b, top] = ladder.slice(-3) as [SampleLevel, SampleLevel, SampleLevel];
  if (a.samples === null || b.samples === null || top.samples === null) return ladder;
  const below = (b.frames[0]!.seconds - a.frames[0]!.seconds) / Math.max(1, unitsOf(b) - unitsOf(a));
  const most = b.frames[0]!.seconds + SAMPLE_COST_RISE * below * (unitsOf(top) - unitsOf(b));
  if (below <= 0 || top.frames[0]!.seconds <= most) return ladder;
  return [...ladder.slice(0, -1), { ...top, frames: [{ ...top.frames[0]!, seconds: most }] }];
}

/** Weights along the shot: each sampled frame's value over the timed frame's, steadied by {@link FRAME_NOISE_SECONDS}. */
function weightsOf(values: ReadonlyMap<number, number>, frame: number): Map<number, number> {
  const reference = Math.max(0, values.get(frame) ?? 0) + FRAME_NOISE_SECONDS;
  return new Map([...values].map(([f, v]) => [f, (Math.max(0, v) + FRAME_NOISE_SECONDS) / reference]));
}

/**
 * The model of a scene's frame cost from its sample render. Per pixel-sample: between the ladder's two
 * highest levels. At the timed frame, with the samples' cost taken off, the sizes measured (small, mid or
 * wide, the render's: its highest level) give what a frame costs by pixels; their first two, carried to
 * no pixels, give the fixed part. Along the shot: the fixed part changes as the small frames do, the rest
 * as the first and last frames at the render's pixels cost beyond their small size, against the timed
 * frame at the same samples (as the small frames where they were not measured).
 */
export function modelOf(measure: SampleMeasure, parallel = 1): EstimateModel {
  const ladder = steadiedLadder([...measure.ladder].sort((a, b) => (a.samples ?? 0) - (b.samples ?? 0)));
  const top = ladder[ladder.length - 1]!;
  const frame = top.frames[0]!.frame;
  let perPixelSample = perPixelSampleOf(ladder);
  if (top.frames[0]!.seconds < perPixelSample * unitsOf(top)) perPixelSample = top.frames[0]!.seconds / unitsOf(top);
  const withoutSamples = (level: SampleLevel, seconds: number) => ({ pixels: level.width * level.height, seconds: Math.max(0, seconds - (level.samples === null ? 0 : perPixelSample * unitsOf(level))) });
  const sizes = [measure.small, measure.mid ?? measure.wide, top]
    .filter((level): level is SampleLevel => level !== undefined)
    .map((level) => withoutSamples(level, timedAt(level, frame)))
    .sort((a, b) => a.pixels - b.pixels)
    .filter((p, i, all) => i === 0 || p.pixels > all[i - 1]!.pixels);
  const [first, second] = sizes;
  const slope = first && second ? Math.max(0, (second.seconds - first.seconds) / (second.pixels - first.pixels)) : 0;
  const fixedSeconds = first ? Math.min(first.seconds, Math.max(0, first.seconds - slope * first.pixels)) : 0;
  let highest = 0;
  const pixelSeconds = sizes.map((p) => ({ pixels: p.pixels, seconds: (highest = Math.max(highest, p.seconds - fixedSeconds)) }));
  const small = new Map(measure.small.frames.map((f) => [f.frame, f.seconds]));
  const fixedAlong = weightsOf(small, frame);
  const full = ladder.find((level) => level.samples === measure.ends?.samples) ?? top;
  const beyondSmall = measure.ends
    ? new Map([...measure.ends.frames, { frame, seconds: timedAt(full, frame) }].map((f) => [f.frame, f.seconds - (small.get(f.frame) ?? timedAt(measure.small, frame))]))
    : null;
  const pixelsAlong = beyondSmall ? weightsOf(beyondSmall, frame) : fixedAlong;
  const sampled = [...measure.small.frames].sort((a, b) => a.frame - b.frame);
  return {
    engine: measure.engine,
    fixedSeconds,
    pixelSeconds,
    perPixelSample,
    along: sampled.map((f) => ({ frame: f.frame, fixed: fixedAlong.get(f.frame) ?? 1, pixels: pixelsAlong.get(f.frame) ?? fixedAlong.get(f.frame) ?? 1 })),
    onceSeconds: measure.warmupSeconds + measure.endSeconds,
    spread: relativeSpread(sampled.map((f) => f.seconds + FRAME_NOISE_SECONDS)),
    measuredPixels: Math.max(...sizes.map((p) => p.pixels)),
    measuredUnits: unitsOf(top),
    parallel,
  };
}

/**
 * The render time of `target` on this node from a sample render of its scene (see {@link modelOf} and
 * estimateWithModel), its frames shared by `parallel` renders. Null for another engine than the one sampled.
 */
export function estimateFromSample(measure: SampleMeasure, target: RenderTarget, parallel = 1): TimeRange | null {
  return estimateWithModel(modelOf(measure, parallel), target);
}

/**
 * Frames a sample render renders, in order: the middle of the scene's frames first (its time also holds
 * Blender's first-frame work, so it is only a warm-up), then the one after the middle (`timed`: the
 * frame timed again at other sizes), the first and the last; `ends`: the first and last other than the
 * timed one, timed again at the render's pixels. Fewer when the scene has fewer.
 */
export function sampleFrames(frames: readonly number[]): { warmup: number; order: number[]; timed: number; ends: number[] } {
  const at = Math.floor((frames.length - 1) / 2);
  const warmup = frames[at]!;
  const timed = frames[at + 1] ?? frames[at - 1] ?? warmup;
  const ends = [...new Set([frames[0]!, frames[frames.length - 1]!])].filter((f) => f !== timed);
  return { warmup, order: [...new Set([warmup, timed, frames[0]!, frames[frames.length - 1]!])], timed, ends };
}
