import { z } from 'zod';
import { parseFrameRanges } from '../frame-ranges';
import type { RenderShape } from './render-estimate';

const size = z.tuple([z.number().positive(), z.number().positive()]);
const configShape = z.looseObject({
  resolution: size.optional(),
  resolutionPercentage: z.number().positive().optional(),
  sampleCount: z.number().int().positive().optional(),
  frameRanges: z.array(z.string()).optional(),
});
const analysisShape = z.looseObject({
  resolution: size,
  resolutionPercentage: z.number().positive(),
  samples: z.number().int().nullable(),
  totalFrames: z.number().int(),
});

/**
 * What a render asks of the farm from its settings over the scene's analysis: frames (`frames` when
 * given, else the settings' frame ranges, else the scene's), pixels after the resolution percentage, and
 * samples. Null when neither says the resolution.
 */
export function renderShapeFrom(config: unknown, analysis: unknown, frames: number | null = null): RenderShape | null {
  const parsedConfig = configShape.safeParse(config);
  const parsedAnalysis = analysisShape.safeParse(analysis);
  const c = parsedConfig.success ? parsedConfig.data : null;
  const a = parsedAnalysis.success ? parsedAnalysis.data : null;
  const resolution = c?.resolution ?? a?.resolution;
  if (!resolution) return null;
  const percentage = c?.resolutionPercentage ?? a?.resolutionPercentage ?? 100;
  const ranged = c?.frameRanges ? parseFrameRanges(c.frameRanges) : null;
  return {
    frames: frames !== null && frames > 0 ? frames : ranged?.ok ? ranged.frames.length : (a?.totalFrames ?? 0),
    width: Math.max(1, Math.round((resolution[0] * percentage) / 100)),
    height: Math.max(1, Math.round((resolution[1] * percentage) / 100)),
    samples: c?.sampleCount ?? a?.samples ?? null,
  };
}
