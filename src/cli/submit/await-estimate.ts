import type { ApiClient } from '../../core/api';
import { estimateOf, type Job, type JobEstimate, studioOf } from '../../shared/api';
import { estimateWithModel, renderTargetFrom } from '../../shared/render';

/** How long `--validate-only` waits for a Renderdrop node's estimate after validation, and how often it asks. */
const WAIT_MS = 180_000;
const EVERY_MS = 1000;

/**
 * A Renderdrop node's estimate of a validated job, from the sample render it runs after validation:
 * asked until it is there, the job leaves review, or {@link WAIT_MS} pass; priced for the settings the
 * render will ask for (`config`) as the node will price them at Start when the node says what its sample
 * measured. Null on another farm (its jobs carry no priority), when none came, or for an engine the
 * sample did not measure.
 */
export async function awaitNodeEstimate(client: Pick<ApiClient, 'getJob'>, job: Job, signal?: AbortSignal, waitMs = WAIT_MS, config: unknown = null): Promise<Pick<JobEstimate, 'seconds' | 'low' | 'high'> | null> {
  if (studioOf(job).priority === null) return null;
  const deadline = Date.now() + waitMs;
  let current = job;
  for (;;) {
    const estimate = estimateOf(current);
    if (estimate?.basis === 'sample') {
      const target = estimate.model && config !== null ? renderTargetFrom(config, current.analysis) : null;
      if (estimate.model && target) return estimateWithModel(estimate.model, target);
      return { seconds: estimate.seconds, low: estimate.low, high: estimate.high };
    }
    if (current.status !== 'validated' || Date.now() >= deadline || signal?.aborted) return null;
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    current = await client.getJob(job.id, signal ? { signal } : {});
  }
}
