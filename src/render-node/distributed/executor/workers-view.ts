import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NodeWorkers } from '../../../shared/api';
import { distinctBlenderVersions } from '../../../shared/blender-versions';
import { listBlocks } from '../worker-blocks';
import { listWorkers } from '../worker-registry';

/** Statuses of a job that has ended: its blocks are no longer listed (they stay in Redis until they expire). */
const ENDED = new Set(['completed', 'failed', 'canceled']);

/**
 * The distributed node's worker list: the workers that reported lately and, for a day, those that
 * stopped; the chunks waiting for them; and the blocks of jobs that have not ended (and every-job
 * blocks). The Blender versions are those of the live workers.
 */
export async function distributedWorkersView(input: { queue: Queue; redis: Redis; redisLabel: string; jobStatus: (jobId: string) => string | null }): Promise<NodeWorkers> {
  const [counts, workers, blocks] = await Promise.all([
    input.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed'),
    listWorkers(input.redis),
    listBlocks(input.redis),
  ]);
  const live = workers.filter((w) => w.state !== 'offline');
  return {
    mode: 'distributed',
    blenderVersions: distinctBlenderVersions(live.map((w) => w.blenderVersion)),
    redis: input.redisLabel,
    chunks: { waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0), active: counts.active ?? 0, delayed: counts.delayed ?? 0 },
    workers,
    blocks: blocks.filter((b) => {
      if (b.jobId === null) return true;
      const status = input.jobStatus(b.jobId);
      return status !== null && !ENDED.has(status);
    }),
  };
}
