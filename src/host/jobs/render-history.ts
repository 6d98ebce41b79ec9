import { z } from 'zod';
import { type Job, progressOf } from '../../shared/api';
import { parseFrameRanges, estimateRender, type PastRender, type RenderEstimate, type RenderShape } from '../../shared/render';

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
 * What a job asks of the farm: frames (the progress total, else its frame ranges, else the scene's),
 * pixels after the percentage and samples, from its final configuration over its analysis. Null when
 * neither says the resolution.
 */
export function renderShapeOf(job: Job): RenderShape | null {
  const config = configShape.safeParse(job.finalConfig);
  const analysis = analysisShape.safeParse(job.analysis);
  const c = config.success ? config.data : null;
  const a = analysis.success ? analysis.data : null;
  const resolution = c?.resolution ?? a?.resolution;
  if (!resolution) return null;
  const percentage = c?.resolutionPercentage ?? a?.resolutionPercentage ?? 100;
  const progress = progressOf(job);
  const ranged = c?.frameRanges ? parseFrameRanges(c.frameRanges) : null;
  const frames = progress && progress.totalFrames > 0 ? progress.totalFrames : ranged?.ok ? ranged.frames.length : (a?.totalFrames ?? 0);
  return {
    frames,
    width: Math.max(1, Math.round((resolution[0] * percentage) / 100)),
    height: Math.max(1, Math.round((resolution[1] * percentage) / 100)),
    samples: c?.sampleCount ?? a?.samples ?? null,
  };
}

/** Completed renders of one profile by scene file name, for estimates of the next ones. */
export class RenderHistory {
  readonly #byScene = new Map<string, Map<string, PastRender>>();

  /** Takes note of a job: a completed one with a counted render time joins its scene's history. */
  record(job: Job, sceneName: string, endedAt: string | null): void {
    if (job.status !== 'completed' || typeof job.normalizedSeconds !== 'number') return;
    const shape = renderShapeOf(job);
    if (!shape) return;
    let renders = this.#byScene.get(sceneName);
    if (!renders) this.#byScene.set(sceneName, (renders = new Map()));
    renders.set(job.id, { shape, normalizedSeconds: job.normalizedSeconds, endedAt: endedAt ?? job.updatedAt });
  }

  /** Forgets everything (the list is loaded again). */
  clear(): void {
    this.#byScene.clear();
  }

  /** The estimate of a job not rendered yet, from earlier renders of its scene; null without any. */
  estimate(job: Job, sceneName: string): RenderEstimate | null {
    const renders = this.#byScene.get(sceneName);
    if (!renders) return null;
    const shape = renderShapeOf({ ...job, progress: null });
    if (!shape) return null;
    return estimateRender(shape, [...renders.entries()].filter(([id]) => id !== job.id).map(([, render]) => render), sceneName);
  }
}
