import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ChunkRecord } from '../chunks-repo';
import { chunkJobId, JOB_KEY_TTL_SECONDS, redisKeys } from '../protocol';

/** Tell every worker to stop a job, and take its chunks (`chunks`, as the node keeps them) that no worker holds off the queue. */
export async function stopEverywhere(redis: Redis, queue: Queue, jobId: string, chunks: readonly ChunkRecord[]): Promise<void> {
  await redis.set(redisKeys.canceled(jobId), '1', 'EX', JOB_KEY_TTL_SECONDS);
  await redis.publish(redisKeys.cancelChannel, jobId);
  for (const chunk of chunks) {
    await queue.remove(chunkJobId(jobId, chunk.index, chunk.generation)).catch(() => 0);
  }
}
