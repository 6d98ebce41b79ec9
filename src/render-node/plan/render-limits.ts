import type { Adjustment } from './adjustment';
import type { FinalConfig, RenderPlan } from './render-plan';

/** What one render may ask of this node (`node serve` options). */
export interface RenderLimits {
  /** Frames per job; more is refused (400 `limit_frames`). */
  maxFramesPerJob: number;
  /** Pixels per frame after the resolution percentage; more is refused (400 `limit_pixels`). */
  maxPixelsPerFrame: number;
  /** Samples per frame; more is lowered to this, reported in `finalConfig.adjustments`. */
  maxSamples: number;
  /** Render time per job (its frames' time plus the frame in progress); past it the job fails. */
  jobTimeLimitMs: number;
  /** Bytes a zip may expand to; a larger one fails validation before anything is extracted. */
  maxExtractedBytes: number;
}

export const DEFAULT_RENDER_LIMITS: RenderLimits = {
  maxFramesPerJob: 10_000,
  maxPixelsPerFrame: 8192 * 8192,
  maxSamples: 16_384,
  jobTimeLimitMs: 24 * 3600_000,
  maxExtractedBytes: 20 * 1024 ** 3,
};

/** A render as planned: what it will use and the plan Blender gets. */
export type PlannedRender = { finalConfig: FinalConfig; plan: RenderPlan };

/** The pixel size Blender renders at: each side scaled by the percentage, rounded down. */
export function renderedSize(resolution: readonly [number, number], percentage: number): [number, number] {
  return [Math.floor((resolution[0] * percentage) / 100), Math.floor((resolution[1] * percentage) / 100)];
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Hold a planned render to the node's limits: too many frames or pixels are refused with a message
 * naming the limit; too many samples are lowered, with the change added to the adjustments.
 */
export function applyRenderLimits(planned: PlannedRender, limits: RenderLimits): ({ ok: true } & PlannedRender) | { ok: false; code: string; message: string } {
  const { plan, finalConfig } = planned;
  if (plan.frames.length > limits.maxFramesPerJob) {
    return {
      ok: false,
      code: 'limit_frames',
      message: `This render node renders at most ${count(limits.maxFramesPerJob)} frames per job; this render has ${count(plan.frames.length)}. Split the frames over several jobs.`,
    };
  }
  const [width, height] = renderedSize(plan.resolution, plan.resolutionPercentage);
  if (width * height > limits.maxPixelsPerFrame) {
    return {
      ok: false,
      code: 'limit_pixels',
      message: `This render node renders at most ${count(limits.maxPixelsPerFrame)} pixels per frame; ${plan.resolution[0]} x ${plan.resolution[1]} at ${plan.resolutionPercentage} % is ${width} x ${height} (${count(width * height)}). Lower the resolution or its percentage.`,
    };
  }
  if (plan.samples === null || plan.samples <= limits.maxSamples) return { ok: true, plan, finalConfig };
  const adjustment: Adjustment = {
    field: 'sampleCount',
    requested: plan.samples,
    used: limits.maxSamples,
    reason: `This render node renders at most ${count(limits.maxSamples)} samples per frame.`,
  };
  return {
    ok: true,
    plan: { ...plan, samples: limits.maxSamples },
    finalConfig: { ...finalConfig, sampleCount: limits.maxSamples, adjustments: [...finalConfig.adjustments, adjustment] },
  };
}
