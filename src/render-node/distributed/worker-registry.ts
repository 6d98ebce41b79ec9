import type { Redis } from 'ioredis';
import { workerInfoSchema, type WorkerInfo } from '../../shared/api';
import { redisKeys, WORKER_LIVE_MS } from './protocol';

/** Record that a worker is alive and what it is doing; the record expires when it stops reporting. */
export async function reportWorker(redis: Redis, info: WorkerInfo, now = Date.now()): Promise<void> {
  await redis
    .multi()
    .set(redisKeys.worker(info.id), JSON.stringify(info), 'PX', WORKER_LIVE_MS * 2)
    .zadd(redisKeys.workers, now, info.id)
    .exec();
}

/** Take a worker off the list (it stopped cleanly). */
export async function removeWorker(redis: Redis, id: string): Promise<void> {
  await redis.multi().del(redisKeys.worker(id)).zrem(redisKeys.workers, id).exec();
}

/** Workers that reported within {@link WORKER_LIVE_MS}, by name; long-gone ones are dropped from the index. */
export async function liveWorkers(redis: Redis, now = Date.now()): Promise<WorkerInfo[]> {
  const since = now - WORKER_LIVE_MS;
  const [, ids] = await Promise.all([
    redis.zremrangebyscore(redisKeys.workers, '-inf', `(${now - WORKER_LIVE_MS * 10}`),
    redis.zrangebyscore(redisKeys.workers, since, '+inf'),
  ]);
  if (ids.length === 0) return [];
  const values = await redis.mget(ids.map((id) => redisKeys.worker(id)));
  const workers: WorkerInfo[] = [];
  for (const value of values) {
    if (value === null) continue;
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      continue;
    }
    const parsed = workerInfoSchema.safeParse(json);
    if (parsed.success) workers.push(parsed.data);
  }
  return workers.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
