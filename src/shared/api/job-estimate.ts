import { z } from 'zod';
import type { Job } from './job';

/**
 * A Renderdrop node's estimate of a job's render time on that farm (the job's `estimate`, a node
 * extension): before Start from a short sample render of the scene, once it renders from the frames
 * already done. `seconds` is the expected render time, `low`..`high` the likely range; all in seconds
 * of render time on that farm (for a job that renders, the time left).
 */
export const jobEstimateSchema = z.object({
  seconds: z.number().nonnegative(),
  low: z.number().nonnegative(),
  high: z.number().nonnegative(),
  /** `sample`: measured by a sample render before Start; `frames`: from the frames rendered so far (time left). */
  basis: z.enum(['sample', 'frames']),
  /**
   * Before Start: what the sample render measured of the scene's frames, so a client prices other
   * settings (frames, resolution, samples) as the node will (see shared/render/estimate-model.ts).
   */
  model: z
    .object({
      engine: z.string(),
      fixedSeconds: z.number().nonnegative(),
      pixelSeconds: z.array(z.object({ pixels: z.number().nonnegative(), seconds: z.number().nonnegative() })),
      perPixelSample: z.number().nonnegative(),
      along: z.array(z.object({ frame: z.number().int(), fixed: z.number().nonnegative(), pixels: z.number().nonnegative() })).min(1),
      onceSeconds: z.number().nonnegative(),
      spread: z.number().nonnegative(),
      measuredPixels: z.number().nonnegative(),
      measuredUnits: z.number().nonnegative(),
      parallel: z.number().int().positive(),
    })
    .optional(),
});
export type JobEstimate = z.infer<typeof jobEstimateSchema>;

export { FRAME_ORDERS, type FrameOrder } from '../frame-order';

/** The node's estimate carried by a job payload, or null when it has none (or another server's shape). */
export function estimateOf(job: Pick<Job, 'estimate'> | Job): JobEstimate | null {
  const parsed = jobEstimateSchema.safeParse((job as Job).estimate);
  return parsed.success ? parsed.data : null;
}
