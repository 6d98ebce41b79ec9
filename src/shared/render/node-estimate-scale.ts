import type { RenderShape } from './render-estimate';

/** A time with its likely range, in seconds. */
export interface RangedSeconds {
  seconds: number;
  low: number;
  high: number;
}

function work(shape: RenderShape, withSamples: boolean): number {
  const samples = withSamples && shape.samples !== null && shape.samples > 0 ? shape.samples : 1;
  return Math.max(1, shape.frames) * Math.max(1, shape.width * shape.height) * samples;
}

/**
 * A farm's estimate made for the settings `from`, carried to the settings `to` (frames, pixels and
 * samples changed in the review) by the work each asks for; samples count only when both have them.
 * Null when either asks for nothing.
 */
export function scaleEstimate(estimate: RangedSeconds, from: RenderShape, to: RenderShape): RangedSeconds | null {
  if (from.frames <= 0 || to.frames <= 0 || from.width <= 0 || to.width <= 0) return null;
  const withSamples = from.samples !== null && to.samples !== null;
  const ratio = work(to, withSamples) / work(from, withSamples);
  return { seconds: estimate.seconds * ratio, low: estimate.low * ratio, high: estimate.high * ratio };
}
