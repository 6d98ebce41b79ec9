import type { RangedSeconds } from './node-estimate-scale';

/**
 * What a Renderdrop node measured of a scene's frames on its Blender (a sample render), carried with
 * the job's estimate so the review prices the settings the artist types exactly as the node will at
 * Start. At the sampled frame a frame costs `fixedSeconds`, plus what its pixels cost (`pixelSeconds`,
 * read between the sizes measured), plus `perPixelSample x pixels x samples`; along the shot the fixed
 * part and the part that grows with pixels and samples each change by their own weights (`along`).
 */
export interface EstimateModel {
  /** The engine the node renders the scene with; another engine's time is not known. */
  engine: string;
  /** What a frame costs whatever its size (the scene's preparation: geometry, textures). */
  fixedSeconds: number;
  /**
   * What a frame costs beyond `fixedSeconds` at the sizes measured, without samples, by pixels: read on
   * straight lines from nothing at no pixels through them, beyond the largest on the last two's slope.
   */
  pixelSeconds: { pixels: number; seconds: number }[];
  /** 0 for an engine without samples. */
  perPixelSample: number;
  /** How a frame's cost changes along the shot: at the sampled frames, the weight of its fixed part and of the part that grows with pixels and samples (1 at the sampled frame). */
  along: { frame: number; fixed: number; pixels: number }[];
  /** What a render pays once: its first frame's extra work and what Blender does after the last. */
  onceSeconds: number;
  /** How much the sampled frames differed (relative spread): the range widens with it. */
  spread: number;
  /** The largest pixels and pixels x samples timed: an estimate carried beyond them is less sure. */
  measuredPixels: number;
  measuredUnits: number;
  /** Renders that share a job's frames (1: the node's own Blender). */
  parallel: number;
}

/** What a render asks for, as an estimate prices it. */
export interface EstimateTarget {
  /** Null: the engine the scene renders with on the farm (the model's). */
  engine: string | null;
  frames: readonly number[];
  width: number;
  height: number;
  samples: number | null;
}

/** Below this, differences between sampled frames are noise: they shape the estimate less. */
export const FRAME_NOISE_SECONDS = 0.05;

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

/** A time with its range `margin` either side, each to three significant digits. */
export function rangeAround(total: number, margin: number): RangedSeconds {
  const digits = (value: number) => Math.max(0.001, Number(value.toPrecision(3)));
  return { seconds: digits(total), low: digits(total / (1 + margin)), high: digits(total * (1 + margin)) };
}

/**
 * What a frame costs beyond the fixed part at `pixels` (no samples): on straight lines between nothing
 * at no pixels and the sizes measured, beyond the largest on the slope of the last two, never below nothing.
 */
export function pixelSecondsAt(points: readonly { pixels: number; seconds: number }[], pixels: number): number {
  const sorted = [...points].sort((a, b) => a.pixels - b.pixels);
  if (sorted.length === 0) return 0;
  const line = (a: { pixels: number; seconds: number }, b: { pixels: number; seconds: number }) =>
    b.pixels === a.pixels ? b.seconds : a.seconds + ((b.seconds - a.seconds) * (pixels - a.pixels)) / (b.pixels - a.pixels);
  const all = [{ pixels: 0, seconds: 0 }, ...sorted.filter((p) => p.pixels > 0)];
  let i = 1;
  while (i < all.length - 1 && pixels > all[i]!.pixels) i++;
  return Math.max(0, line(all[i - 1]!, all[i]!));
}

/** What one frame costs at a size, at the sampled frame. */
export function frameSecondsAt(model: EstimateModel, width: number, height: number, samples: number | null): number {
  const pixels = width * height;
  return model.fixedSeconds + pixelSecondsAt(model.pixelSeconds, pixels) + model.perPixelSample * pixels * (samples ?? 1);
}

/**
 * The render time of `target` from a node's model: each frame's fixed part and the part that grows
 * with its pixels and samples, each weighted at its place along the shot, summed over the frames and
 * shared by the renders (`parallel`), plus what a render pays once. Its range widens with how much the
 * sampled frames differed and how far the target lies beyond what was measured. Null for another
 * engine or no frames.
 */
export function estimateWithModel(model: EstimateModel, target: EstimateTarget): RangedSeconds | null {
  if ((target.engine !== null && target.engine !== model.engine) || target.frames.length === 0 || model.along.length === 0) return null;
  const pixels = target.width * target.height;
  const grows = frameSecondsAt(model, target.width, target.height, target.samples) - model.fixedSeconds;
  const along = [...model.along].sort((a, b) => a.frame - b.frame);
  const fixedAlong = along.map((p) => ({ frame: p.frame, seconds: p.fixed }));
  const pixelsAlong = along.map((p) => ({ frame: p.frame, seconds: p.pixels }));
  const frames = target.frames.reduce((sum, frame) => sum + model.fixedSeconds * interpolateAt(fixedAlong, frame) + grows * interpolateAt(pixelsAlong, frame), 0);
  const total = model.onceSeconds + frames / Math.max(1, Math.min(model.parallel, target.frames.length));
  const reach = Math.max(1, pixels / Math.max(1, model.measuredPixels), (pixels * (target.samples ?? 1)) / Math.max(1, model.measuredUnits));
  return rangeAround(total, 0.12 + 0.5 * model.spread + 0.05 * Math.log2(reach));
}
