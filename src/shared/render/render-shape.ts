import { z } from 'zod';
import { parseFrameRanges, sceneFrames } from '../frame-ranges';
import type { EstimateTarget } from './estimate-model';
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

const targetConfig = configShape.extend({ renderEngine: z.string().optional() });
const targetAnalysis = analysisShape.extend({ engine: z.string(), frameStart: z.number().int(), frameEnd: z.number().int(), frameStep: z.number().int() });

/**
 * What a render asks for, as a node's estimate model prices it: its frames (the settings' ranges, else
 * the scene's), pixels as Blender sizes them, samples, and the engine only when the settings change the
 * scene's (else null: the one the farm renders the scene with). Null when the settings or the analysis
 * do not say.
 */
export function renderTargetFrom(config: unknown, analysis: unknown): EstimateTarget | null {
  const c = targetConfig.safeParse(config ?? {});
  const a = targetAnalysis.safeParse(analysis);
  if (!c.success || !a.success) return null;
  const ranged = c.data.frameRanges?.length ? parseFrameRanges(c.data.frameRanges) : null;
  if (ranged && !ranged.ok) return null;
  const [width, height] = c.data.resolution ?? a.data.resolution;
  const percentage = c.data.resolutionPercentage ?? a.data.resolutionPercentage;
  const engine = c.data.renderEngine;
  return {
    engine: engine !== undefined && engine !== a.data.engine ? engine : null,
    frames: ranged ? ranged.frames : sceneFrames(a.data.frameStart, a.data.frameEnd, a.data.frameStep),
    width: Math.max(1, Math.floor((width * percentage) / 100)),
    height: Math.max(1, Math.floor((height * percentage) / 100)),
    samples: c.data.sampleCount ?? a.data.samples,
  };
}
