import { z } from 'zod';
import type { Job } from '../../shared/api';
import { parseFrameRanges, sceneFrames } from '../../shared/render';

const withRanges = z.looseObject({ frameRanges: z.array(z.string()).min(1) });
const withSceneRange = z.looseObject({ frameStart: z.number().int(), frameEnd: z.number().int(), frameStep: z.number().int().optional() });

/**
 * The frames a job renders: the frame ranges of its final configuration, else of its requested one,
 * else the scene's own range from the analysis; null when the server says none of these.
 */
export function expectedFrames(job: Pick<Job, 'finalConfig' | 'requestedConfig' | 'analysis'>): number[] | null {
  for (const config of [job.finalConfig, job.requestedConfig]) {
    const parsed = withRanges.safeParse(config);
    if (!parsed.success) continue;
    const frames = parseFrameRanges(parsed.data.frameRanges);
    if (frames.ok) return frames.frames;
  }
  const scene = withSceneRange.safeParse(job.analysis);
  if (scene.success) return sceneFrames(scene.data.frameStart, scene.data.frameEnd, scene.data.frameStep ?? 1);
  return null;
}
