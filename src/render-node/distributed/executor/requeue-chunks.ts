import type { Redis } from 'ioredis';
import { HttpError } from '../../http-error';
import { autoChunkSize } from '../chunk-plan';
import type { ChunksRepo } from '../chunks-repo';
import { redisKeys } from '../protocol';
import { liveWorkers } from '../worker-registry';
import { withinTimeout } from './redis-timeout';

/**
 * Before a requeue of a job that ended: its canceled mark goes so workers take its chunks again, and
 * the frames to render (those asked for, and any the job still lacks) go into new chunks: new queue
 * entries in their first generation, whatever became of the old ones. A job that never had chunks
 * keeps none: its render splits all its frames as usual.
 */
export async function requeueChunks(o: { redis: Redis; chunks: ChunksRepo; jobId: string; frames: readonly number[]; chunkSize: number | null }): Promise<void> {
  await withinTimeout(o.redis.del(redisKeys.canceled(o.jobId)), () => {
    throw new HttpError(503, 'redis_unavailable', 'The frames cannot be queued for the render workers now: Redis is not answering. Try again shortly.');
  });
  const chunks = o.chunks.list(o.jobId);
  if (chunks.length === 0) return;
  const have = o.chunks.recordedFrames(o.jobId);
  const lacking = chunks.flatMap((c) => c.frames.filter((f) => !have.has(f)));
  const again = [...new Set([...o.frames, ...lacking])];
  const workers = await withinTimeout(liveWorkers(o.redis).catch(() => []), () => []);
  o.chunks.requeue(o.jobId, again, o.chunkSize ?? autoChunkSize(again.length, workers.length));
}
