import type { ApiClient } from '../../core/api';
import { estimateOf, type Job, type JobEstimate, studioOf } from '../../shared/api';

/** How long `--validate-only` waits for a Renderdrop node's estimate after validation, and how often it asks. */
const WAIT_MS = 180_000;
const EVERY_MS = 1000;

/**
 * A Renderdrop node's estimate of a validated job, from the sample render it runs after validation:
 * asked until it is there, the job leaves review, or {@link WAIT_MS} pass; null on another farm (its
 * jobs carry no priority) or when none came.
 */
export async function awaitNodeEstimate(client: Pick<ApiClient, 'getJob'>, job: Job, signal?: AbortSignal, waitMs = WAIT_MS): Promise<Pick<JobEstimate, 'seconds' | 'low' | 'high'> | null> {
  if (studioOf(job).priority === null) return null;
  const deadline = Date.now() + waitMs;
  let current = job;
  for (;;) {
    const estimate = estimateOf(current);
    if (estimate?.basis === 'sample') return { seconds: estimate.seconds, low: estimate.low, high: estimate.high };
    if (current.status !== 'validated' || Date.now() >= deadline || signal?.aborted) return null;
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    current = await client.getJob(job.id, signal ? { signal } : {});
  }
}
