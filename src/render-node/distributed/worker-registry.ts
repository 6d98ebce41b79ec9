import type { Redis } from 'ioredis';
import { workerInfoSchema, type WorkerInfo } from '../../shared/api';
import { redisKeys, WORKER_KEEP_MS, WORKER_LIVE_MS } from './protocol';

/** Words of a worker that stopped reporting without saying goodbye. */
const GONE_QUIET = 'It stopped reporting: stopped, crashed or cut off from Redis.';
/** Words of a worker that stopped cleanly. */
const STOPPED = 'It was stopped.';

/** Record that a worker is alive and what it is doing; the record is kept a day after it stops reporting. */
export async function reportWorker(redis: Redis, info: WorkerInfo, now = Date.now()): Promise<void> {
  await redis
    .multi()
    .set(redisKeys.worker(info.id), JSON.stringify(info), 'PX', WORKER_KEEP_MS)
    .zadd(redisKeys.workers, now, info.id)
    .exec();
}

/** A worker stopped cleanly: it stays on the list for a day, offline, and takes no part in routing. */
export async function markWorkerOffline(redis: Redis, info: WorkerInfo, now = Date.now()): Promise<void> {
  await reportWorker(redis, { ...info, state: 'offline', reason: STOPPED, current: null, lastSeenAt: new Date(now).toISOString() }, now);
}

/** Every worker record of the list with when it last reported (ms); those older than a day are dropped from the index. */
async function readWorkers(redis: Redis, now: number, since: number): Promise<{ info: WorkerInfo; seen: number }[]> {
  const [, flat] = await Promise.all([
    redis.zremrangebyscore(redisKeys.workers, '-inf', `(${now - WORKER_KEEP_MS}`),
    redis.zrangebyscore(redisKeys.workers, since, '+inf', 'WITHSCORES'),
  ]);
  const ids: { id: string; seen: number }[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) ids.push({ id: flat[i]!, seen: Number(flat[i + 1]) });
  if (ids.length === 0) return [];
  const values = await redis.mget(ids.map(({ id }) => redisKeys.worker(id)));
  const workers: { info: WorkerInfo; seen: number }[] = [];
  values.forEach((value, i) => {
    if (value === null) return;
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      return;
    }
    const parsed = workerInfoSchema.safeParse(json);
    if (parsed.success && parsed.data.id === ids[i]!.id) workers.push({ info: parsed.data, seen: ids[i]!.seen });
  });
  return workers;
}

const byName = (a: WorkerInfo, b: WorkerInfo) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/** Workers that reported within {@link WORKER_LIVE_MS} and have not stopped, by name: the ones routing counts. */
export async function liveWorkers(redis: Redis, now = Date.now()): Promise<WorkerInfo[]> {
  const workers = await readWorkers(redis, now, now - WORKER_LIVE_MS);
  return workers.map((w) => w.info).filter((w) => w.state !== 'offline').sort(byName);
}

/**
 * The worker list: live workers, and for a day those that stopped (`offline`, with why). A worker that
 * came back under the same name on the same host replaces its offline records, and of several offline
 * records of one name and host only the latest is listed.
 */
export async function listWorkers(redis: Redis, now = Date.now()): Promise<WorkerInfo[]> {
  const all = await readWorkers(redis, now, now - WORKER_KEEP_MS);
  const live: WorkerInfo[] = [];
  const offline = new Map<string, { info: WorkerInfo; seen: number }>();
  const who = (w: WorkerInfo) => `${w.host}\n${w.name}`;
  for (const { info, seen } of all) {
    if (info.state !== 'offline' && seen >= now - WORKER_LIVE_MS) {
      live.push(info);
      continue;
    }
    const gone: WorkerInfo = info.state === 'offline' ? info : { ...info, state: 'offline', reason: GONE_QUIET, current: null, lastSeenAt: new Date(seen).toISOString() };
    const kept = offline.get(who(gone));
    if (!kept || kept.seen < seen) offline.set(who(gone), { info: gone, seen });
  }
  const back = new Set(live.map(who));
  const stopped = [...offline.values()].map((w) => w.info).filter((w) => !back.has(who(w)));
  return [...live, ...stopped].sort(byName);
}
