import { type Job, progressOf } from '../../shared/api';
import { estimateRender, renderShapeFrom, type PastRender, type RenderEstimate, type RenderShape } from '../../shared/render';

/**
 * What a job asks of the farm: frames (the progress total, else its frame ranges, else the scene's),
 * pixels after the percentage and samples, from its final configuration over its analysis. Null when
 * neither says the resolution.
 */
export function renderShapeOf(job: Job): RenderShape | null {
  return renderShapeFrom(job.finalConfig, job.analysis, progressOf(job)?.totalFrames ?? null);
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
    const renders = this.pastRenders(job.id, sceneName);
    if (renders.length === 0) return null;
    const shape = renderShapeOf({ ...job, progress: null });
    if (!shape) return null;
    return estimateRender(shape, renders, sceneName);
  }

  /** The completed renders of a scene other than the job itself, which an estimate of that job is made from. */
  pastRenders(jobId: string, sceneName: string): PastRender[] {
    const renders = this.#byScene.get(sceneName);
    return renders ? [...renders.entries()].filter(([id]) => id !== jobId).map(([, render]) => render) : [];
  }
}
