import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { WorkerBlock } from '../../shared/api';
import { JOB_KEY_TTL_SECONDS, redisKeys } from './protocol';

/** One block as kept in Redis (untrusted: anything that does not parse is ignored). */
const storedBlock = z.object({ by: z.enum(['hand', 'failures']), since: z.string().max(40) });

function parseBlock(value: string): z.infer<typeof storedBlock> | null {
  try {
    const parsed = storedBlock.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Names of the workers kept from a job by hand: for that job, or for every job. */
export async function blockedByHand(redis: Redis, jobId: string): Promise<Set<string>> {
  const [forJob, everyJob] = await Promise.all([redis.hgetall(redisKeys.jobBlocks(jobId)), redis.hkeys(redisKeys.everyJobBlocks)]);
  const names = new Set(everyJob);
  for (const [name, value] of Object.entries(forJob)) if (parseBlock(value)?.by === 'hand') names.add(name);
  return names;
}

/** Record that a worker failed a job's chunks too often; a block by hand already there stays as it is. */
export async function recordFailureBlock(redis: Redis, jobId: string, worker: string, now = new Date()): Promise<void> {
  await redis
    .multi()
    .hsetnx(redisKeys.jobBlocks(jobId), worker, JSON.stringify({ by: 'failures', since: now.toISOString() }))
    .expire(redisKeys.jobBlocks(jobId), JOB_KEY_TTL_SECONDS)
    .zadd(redisKeys.blockedJobs, now.getTime(), jobId)
    .exec();
}

/** Keep a worker from one job (`jobId`) or from every job (null), by hand. */
export async function blockWorker(redis: Redis, worker: string, jobId: string | null, now = new Date()): Promise<void> {
  const value = JSON.stringify({ by: 'hand', since: now.toISOString() });
  if (jobId === null) {
    await redis.hset(redisKeys.everyJobBlocks, worker, value);
    return;
  }
  await redis
    .multi()
    .hset(redisKeys.jobBlocks(jobId), worker, value)
    .expire(redisKeys.jobBlocks(jobId), JOB_KEY_TTL_SECONDS)
    .zadd(redisKeys.blockedJobs, now.getTime(), jobId)
    .exec();
}

/**
 * Let a worker take a job's chunks again (`jobId`), or every job's (null). Unblocking it for a job also
 * forgets the chunks of that job it failed, so a worker blocked after failures starts afresh.
 */
export async function unblockWorker(redis: Redis, worker: string, jobId: string | null): Promise<void> {
  if (jobId === null) {
    await redis.hdel(redisKeys.everyJobBlocks, worker);
    return;
  }
  await redis.multi().hdel(redisKeys.jobBlocks(jobId), worker).hdel(redisKeys.failures(jobId), worker).exec();
}

/** Every block kept in Redis: those for every job first, then per job, each by worker name. */
export async function listBlocks(redis: Redis, now = Date.now()): Promise<WorkerBlock[]> {
  await redis.zremrangebyscore(redisKeys.blockedJobs, '-inf', `(${now - JOB_KEY_TTL_SECONDS * 1000}`);
  const [everyJob, jobIds] = await Promise.all([redis.hgetall(redisKeys.everyJobBlocks), redis.zrange(redisKeys.blockedJobs, 0, -1)]);
  const blocks: WorkerBlock[] = [];
  const add = (entries: Record<string, string>, jobId: string | null) => {
    for (const [worker, value] of Object.entries(entries).sort(([a], [b]) => a.localeCompare(b))) {
      const block = parseBlock(value);
      if (block) blocks.push({ worker, jobId, by: jobId === null ? 'hand' : block.by, since: block.since });
    }
  };
  add(everyJob, null);
  const perJob = await Promise.all(jobIds.map((id) => redis.hgetall(redisKeys.jobBlocks(id))));
  jobIds.forEach((id, i) => add(perJob[i] ?? {}, id));
  return blocks;
}
