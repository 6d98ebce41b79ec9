import { countOf, formatDuration } from '../text';

/** What a render asks of the farm, as far as its time goes. */
export interface RenderShape {
  frames: number;
  /** Width and height in pixels, after the resolution percentage. */
  width: number;
  height: number;
  /** Samples per pixel; null when the engine has none (Eevee, Workbench) or it is unknown. */
  samples: number | null;
}

/** One finished render of a scene, as the queue knows it. */
export interface PastRender {
  shape: RenderShape;
  /** The render time the farm counted for the whole job (`normalizedSeconds`). */
  normalizedSeconds: number;
  /** When it ended, to prefer the latest renders. */
  endedAt: string;
}

/** A time estimate before a render starts, and what it is based on, in words. */
export interface RenderEstimate {
  seconds: number;
  /** What it is based on, as a phrase that follows "based on" (no capital, no full stop). */
  basedOn: string;
  /** How many earlier renders it was made from. */
  renders: number;
}

/** The earlier renders of one scene that estimates of its next render are made from. */
export interface EstimateBasis {
  sceneName: string;
  renders: PastRender[];
}

/** The latest renders an estimate looks at. */
const LATEST = 5;

function work(shape: RenderShape, withSamples: boolean): number {
  const samples = withSamples && shape.samples !== null && shape.samples > 0 ? shape.samples : 1;
  return Math.max(1, shape.frames) * Math.max(1, shape.width * shape.height) * samples;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function usable(render: PastRender): boolean {
  const { shape } = render;
  return Number.isFinite(render.normalizedSeconds) && render.normalizedSeconds > 0 && shape.frames > 0 && shape.width > 0 && shape.height > 0;
}

/**
 * The render time of `target` from earlier renders of the same scene on the same farm: each earlier
 * render's seconds per unit of work (frames x pixels x samples), the median over the latest five,
 * times the work `target` asks for. Samples count only when the target and every render used have
 * them. Null when no earlier render is usable.
 */
export function estimateRender(target: RenderShape, history: readonly PastRender[], sceneName: string): RenderEstimate | null {
  if (target.frames <= 0 || target.width <= 0 || target.height <= 0) return null;
  const latest = history
    .filter(usable)
    .sort((a, b) => (a.endedAt < b.endedAt ? 1 : a.endedAt > b.endedAt ? -1 : 0))
    .slice(0, LATEST);
  if (latest.length === 0) return null;
  const withSamples = target.samples !== null && latest.every((r) => r.shape.samples !== null);
  const perUnit = median(latest.map((r) => r.normalizedSeconds / work(r.shape, withSamples)));
  const seconds = Math.max(1, Math.round(perUnit * work(target, withSamples)));
  const count = latest.length === 1 ? 'the last render' : `the last ${latest.length} renders`;
  const last = latest[0]!.shape;
  const perFrame = Math.round(latest[0]!.normalizedSeconds / last.frames);
  const lastWhat = `${countOf(last.frames, 'frame')} at ${last.width} × ${last.height}${last.samples !== null ? `, ${last.samples} samples` : ''}`;
  return {
    seconds,
    basedOn: `${count} of ${sceneName} on this farm (latest: ${lastWhat}, about ${Math.max(1, perFrame)} s per frame), scaled to ${countOf(target.frames, 'frame')} at ${target.width} × ${target.height}${withSamples ? `, ${target.samples} samples` : ''}`,
    renders: latest.length,
  };
}

/** The estimate as the review says it: "About 2 min 00 s to render, based on the last render of …". */
export function estimateSentence(estimate: RenderEstimate): string {
  return `About ${formatDuration(estimate.seconds)} to render, based on ${estimate.basedOn}.`;
}

/** What the estimate is based on, as a sentence of its own (a tooltip). */
export function estimateBasisSentence(estimate: RenderEstimate): string {
  return `Based on ${estimate.basedOn}.`;
}
