import { z } from 'zod';

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
 * What a sample render measured of a scene on this node: spread frames at a small size (how the cost
 * changes along the shot), one of them again at two larger sizes whose times are well above the noise
 * (so the per-frame cost is fitted as fixed + per-pixel-sample between them), Blender's
 * start-up with the scene and what its first frame costs more than the next (kept apart from the
 * frames' time: a render pays them once).
 */
export const sampleMeasureSchema = z.object({
  engine: z.string(),
  startupSeconds: z.number().nonnegative(),
  warmupSeconds: z.number().nonnegative(),
  small: sampleLevelSchema,
  mid: sampleLevelSchema,
  large: sampleLevelSchema,
});
export type SampleMeasure = z.infer<typeof sampleMeasureSchema>;

/** What a render asks for, as the estimate scales to it. */
export interface RenderTarget {
  engine: string;
  frames: readonly number[];
  width: number;
  height: number;
  samples: number | null;
}

/** A time in seconds with its likely range. */
export interface TimeRange {
  seconds: number;
  low: number;
  high: number;
}

/** The per-frame cost as fitted: `fixed` seconds plus `perUnit` seconds per pixel-sample. */
export interface CostFit {
  fixed: number;
  perUnit: number;
}

/** Differences between sampled frames this small are mostly noise: they shape the estimate less. */
const NOISE_SECONDS = 0.05;

const units = (width: number, height: number, samples: number | null) => width * height * (samples ?? 1);

function mean(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
}

/** Relative spread (coefficient of variation) of positive values; 0 for fewer than two. */
export function relativeSpread(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  if (m <= 0) return 0;
  return Math.sqrt(mean(values.map((v) => (v - m) ** 2))) / m;
}

/**
 * A value at `frame` read from timed frames by straight lines between the nearest ones (the first or
 * last one's value outside them). `points` sorted by frame.
 */
export function interpolateAt(points: readonly { frame: number; seconds: number }[], frame: number): number {
  const first = points[0]!;
  if (frame <= first.frame) return first.seconds;
  for (let i = 1; i < points.length; i++) {
    const b = points[i]!;
    if (frame <= b.frame) {
      const a = points[i - 1]!;
      return a.frame === b.frame ? b.seconds : a.seconds + ((b.seconds - a.seconds) * (frame - a.frame)) / (b.frame - a.frame);
    }
  }
  return points[points.length - 1]!.seconds;
}

/**
 * The per-frame cost line through the frame measured at the two larger sizes: time = fixed + perUnit x
 * pixels x samples. A larger size that did not take longer (noise) leaves it proportional.
 */
export function fitCost(measure: SampleMeasure): CostFit {
  const large = measure.large.frames[0]!;
  const small = measure.mid.frames.find((f) => f.frame === large.frame) ?? measure.mid.frames[0]!;
  const x1 = units(measure.mid.width, measure.mid.height, measure.mid.samples);
  const x2 = units(measure.large.width, measure.large.height, measure.large.samples);
  if (x2 <= x1 || large.seconds <= small.seconds) return { fixed: 0, perUnit: large.seconds / x2 };
  const perUnit = (large.seconds - small.seconds) / (x2 - x1);
  return { fixed: Math.max(0, small.seconds - perUnit * x1), perUnit };
}

/**
 * The render time of `target` on this node from a sample render of its scene: the fitted per-frame
 * cost at the target's pixels and samples, shaped along the shot by how the sampled frames differed
 * (read at each target frame between them), summed over its frames and divided by the renders that
 * share them (`parallel`: 1 for the node's own Blender, else its workers). Its range widens with the
 * spread of the sampled frames and with how far the fit is carried beyond what was measured. Null when
 * the engine differs from the one sampled (the time of another engine is not known).
 */
export function estimateFromSample(measure: SampleMeasure, target: RenderTarget, parallel = 1): TimeRange | null {
  if (target.engine !== measure.engine || target.frames.length === 0) return null;
  const fit = fitCost(measure);
  const perFrame = fit.fixed + fit.perUnit * units(target.width, target.height, target.samples);
  const sampled = [...measure.small.frames].sort((a, b) => a.frame - b.frame).map((f) => ({ frame: f.frame, seconds: f.seconds + NOISE_SECONDS }));
  const average = mean(sampled.map((f) => f.seconds));
  const shape = sampled.map((f) => ({ frame: f.frame, seconds: f.seconds / average }));
  const total = measure.warmupSeconds + target.frames.reduce((sum, frame) => sum + perFrame * interpolateAt(shape, frame), 0) / Math.max(1, parallel);
  const reach = units(target.width, target.height, target.samples) / units(measure.large.width, measure.large.height, measure.large.samples);
  const margin = 0.15 + 0.5 * relativeSpread(sampled.map((f) => f.seconds)) + 0.04 * Math.log2(Math.max(1, reach));
  return rangeAround(total, margin);
}

/** A time with its range `margin` either side, each to three significant digits (short times keep their range, which the review scales). */
export function rangeAround(total: number, margin: number): TimeRange {
  const digits = (value: number) => Math.max(0.001, Number(value.toPrecision(3)));
  return { seconds: digits(total), low: digits(total / (1 + margin)), high: digits(total * (1 + margin)) };
}

/**
 * Frames a sample render renders, in order: the middle of the scene's frames first (its time also holds
 * Blender's first-frame work, so it is only a warm-up), then the first, the last and the one after the
 * middle (`timed`: the frame timed again at the larger size). Fewer when the scene has fewer.
 */
export function sampleFrames(frames: readonly number[]): { warmup: number; order: number[]; timed: number } {
  const at = Math.floor((frames.length - 1) / 2);
  const warmup = frames[at]!;
  const timed = frames[at + 1] ?? frames[at - 1] ?? warmup;
  return { warmup, order: [...new Set([warmup, frames[0]!, frames[frames.length - 1]!, timed])], timed };
}
