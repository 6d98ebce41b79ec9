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
 * size (how the cost changes along the shot), then one of them at the render's own pixels with rising
 * samples (`ladder`, the fewest first; one level for an engine without samples), up to the scene's
 * samples or until a further level would cost too much; Blender's start-up with the scene, what its
 * first frame costs more than the next, and what it does after the last (a render pays them once).
 */
export const sampleMeasureSchema = z.object({
  engine: z.string(),
  startupSeconds: z.number().nonnegative(),
  warmupSeconds: z.number().nonnegative(),
  endSeconds: z.number().nonnegative(),
  small: sampleLevelSchema,
  /** The timed frame much wider than the small size, with the fewest samples: taken when the render itself is too narrow to time pixels against the small size. */
  wide: sampleLevelSchema.optional(),
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

/**
 * The model of a scene's frame cost from its sample render. Per pixel-sample: between the ladder's two
 * highest levels (the nearest the render's samples). The model passes through the highest level; what
 * is left at zero samples is split into a fixed part and a per-pixel part by the same frame at the
 * small size (and, when taken, much wider). Along the shot: the small frames' times, relative to the timed frame's.
 */
export function modelOf(measure: SampleMeasure, parallel = 1): EstimateModel {
  const ladder = [...measure.ladder].sort((a, b) => (a.samples ?? 0) - (b.samples ?? 0));
  const top = ladder[ladder.length - 1]!;
  const frame = top.frames[0]!.frame;
  const pixels = top.width * top.height;
  const units = (level: SampleLevel) => level.width * level.height * (level.samples ?? 1);
  const below = ladder.length > 1 ? ladder[ladder.length - 2]! : null;
  let perPixelSample = 0;
  if (below && top.samples !== null && below.samples !== null && top.samples > below.samples) {
    const rise = (top.frames[0]!.seconds - below.frames[0]!.seconds) / (units(top) - units(below));
    const overall = (top.frames[0]!.seconds - ladder[0]!.frames[0]!.seconds) / Math.max(1, units(top) - units(ladder[0]!));
    perPixelSample = Math.max(0, rise > 0 ? rise : overall);
  }
  const samplesTerm = (level: SampleLevel) => (top.samples === null ? 0 : perPixelSample * level.width * level.height * (level.samples ?? 1));
  let atTop = top.frames[0]!.seconds - samplesTerm(top);
  if (atTop < 0) {
    perPixelSample = top.frames[0]!.seconds / units(top);
    atTop = 0;
  }
  const smallPixels = measure.small.width * measure.small.height;
  const atSmall = timedAt(measure.small, frame) - samplesTerm(measure.small);
  const far = measure.wide ? { pixels: measure.wide.width * measure.wide.height, at: measure.wide.frames[0]!.seconds - samplesTerm(measure.wide) } : { pixels, at: atTop };
  const perPixel = far.pixels > smallPixels && far.at > atSmall ? (far.at - atSmall) / (far.pixels - smallPixels) : 0;
  const sampled = [...measure.small.frames].sort((a, b) => a.frame - b.frame);
  const reference = timedAt(measure.small, frame) + FRAME_NOISE_SECONDS;
  return {
    engine: measure.engine,
    fixedSeconds: Math.max(0, atTop - perPixel * pixels),
    perPixel,
    perPixelSample,
    along: sampled.map((f) => ({ frame: f.frame, weight: (f.seconds + FRAME_NOISE_SECONDS) / reference })),
    onceSeconds: measure.warmupSeconds + measure.endSeconds,
    spread: relativeSpread(sampled.map((f) => f.seconds + FRAME_NOISE_SECONDS)),
    measuredPixels: Math.max(pixels, far.pixels),
    measuredUnits: units(top),
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
 * Blender's first-frame work, so it is only a warm-up), then the first, the last and the one after the
 * middle (`timed`: the frame timed again at the render's size). Fewer when the scene has fewer.
 */
export function sampleFrames(frames: readonly number[]): { warmup: number; order: number[]; timed: number } {
  const at = Math.floor((frames.length - 1) / 2);
  const warmup = frames[at]!;
  const timed = frames[at + 1] ?? frames[at - 1] ?? warmup;
  return { warmup, order: [...new Set([warmup, frames[0]!, frames[frames.length - 1]!, timed])], timed };
}
