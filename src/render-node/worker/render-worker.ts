import { join } from 'node:path';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BlenderInfo } from '../blender';
import { checkRedis, CHUNK_QUEUE, openRedis, REDIS_PREFIX, redisKeys, WORKER_HEARTBEAT_MS } from '../distributed';
import { redactRedisUrl, type RedisTarget, workerKeys } from '../worker-access';
import { createChunkProcessor, WorkerStopping } from './chunk-job';
import { DiskRoom } from './disk-room';
import { stopLeftovers } from './leftovers';
import { JobStoppedError } from './node-client';
import { SceneCache } from './scene-cache';
import { WorkerStatus } from './worker-status';

/** How to run a render worker. */
export interface RenderWorkerOptions {
  redis: RedisTarget;
  /** The node's address (`http://host:8787`): from the worker's settings, never from Redis. */
  nodeUrl: string;
  /** The node's worker secret: chunks are checked, and requests to the node signed, with it. */
  secret: string;
  /** Shown in the node's worker list and in failure reasons; several workers may share one. */
  name: string;
  /** The tags it carries (`gpu`, `big-ram`): jobs that require tags render only on workers with all of them. */
  tags?: readonly string[];
  blender: BlenderInfo;
  /** Blender threads per render, or null for all cores. */
  threads: number | null;
  /** Scenes and scratch folders (may be shared by workers on one machine). */
  cacheDir: string;
  log: Logger;
  /** How long a chunk stays held without a sign of life from its worker before another takes it (ms). */
  lockMs?: number;
}

/** A running render worker. */
export interface RenderWorker {
  id: string;
  /** Stop taking chunks; a chunk being rendered goes back to the queue, its delivered frames stay. */
  close(): Promise<void>;
}

/**
 * Take frame chunks from the node's BullMQ queue one at a time, check the node's signature on each,
 * and render them with this machine's Blender for the node at `nodeUrl`. Reports itself in Redis every few seconds (the node lists it), stops a job's Blender when
 * the node publishes a cancel, hands a chunk over to another worker when its job requires tags this
 * worker lacks, renders with another Blender version or an engine this Blender cannot draw, when it is
 * blocked for the job by hand, or when it has failed that job repeatedly, and counts its failures per
 * job in Redis (blocking itself for a job it failed too often).
 */
export async function startRenderWorker(options: RenderWorkerOptions): Promise<RenderWorker> {
  const { log, name, blender } = options;
  await checkRedis(options.redis);
  const workDir = join(options.cacheDir, 'work');
  await stopLeftovers(workDir, join(options.cacheDir, 'scenes'), log);

  const onRedisError = redisWarner(options.redis, log);
  const redis = openRedis(options.redis, onRedisError);
  const subscriber = openRedis(options.redis, onRedisError);
  const bullRedis = openRedis(options.redis, onRedisError);

  const tags = options.tags ?? [];
  const status = new WorkerStatus({ name, blender, threads: options.threads, tags }, redis, onRedisError);
  await status.report();
  const heartbeat = setInterval(() => void status.report(), WORKER_HEARTBEAT_MS);
  await stopOnCancel(subscriber, status, log);

  const scenes = new SceneCache(join(options.cacheDir, 'scenes'));
  const room = new DiskRoom(options.cacheDir, status, log);
  const keys = workerKeys(options.secret);
  const processChunk = createChunkProcessor({ name, tags, blender, threads: options.threads, workDir, scenes, room, nodeUrl: options.nodeUrl, keys, redis, status, log, onRedisError });
  const lockMs = options.lockMs ?? 15_000;
  const worker = new Worker(CHUNK_QUEUE, processChunk, {
    connection: bullRedis,
    prefix: REDIS_PREFIX,
    concurrency: 1,
    lockDuration: lockMs,
    stalledInterval: Math.max(1000, Math.round(lockMs * 0.66)),
    maxStalledCount: 2,
  });
  worker.on('error', onRedisError);
  room.attach(worker);

  let stopping = false;
  return {
    id: status.id,
    async close() {
      if (stopping) return;
      stopping = true;
      status.current?.abort.abort(new WorkerStopping('worker stopping'));
      room.stop();
      const closed = worker.close().then(
        () => true,
        () => true,
      );
      const inTime = await Promise.race([closed, new Promise<false>((resolve) => setTimeout(() => resolve(false), CLOSE_WAIT_MS).unref())]);
      if (!inTime) log.warn({ waitedMs: CLOSE_WAIT_MS }, 'the chunk in progress did not end in time; stopping anyway (it goes back to the queue when it stalls)');
      clearInterval(heartbeat);
      await status.reportStopped();
      await Promise.allSettled([redis.quit(), subscriber.quit(), bullRedis.quit()]);
    },
  };
}

/** How long a stopping worker waits for the chunk in progress to hand itself back before it stops anyway. */
const CLOSE_WAIT_MS = 20_000;

/** Logs a Redis connection problem at most every 10 seconds. */
function redisWarner(target: RedisTarget, log: Logger): (error: Error) => void {
  let lastError = 0;
  return (error) => {
    if (Date.now() - lastError < 10_000) return;
    lastError = Date.now();
    log.warn({ err: error.message, redis: redactRedisUrl(target.url) }, 'Redis connection problem; retrying');
  };
}

/** Stop Blender when the node publishes that the job being rendered was canceled. */
async function stopOnCancel(subscriber: Redis, status: WorkerStatus, log: Logger): Promise<void> {
  subscriber.on('message', (_channel: string, jobId: string) => {
    if (status.current?.jobId === jobId) {
      log.info({ jobId }, 'job canceled: stopping Blender');
      status.current.abort.abort(new JobStoppedError('canceled'));
    }
  });
  await subscriber.subscribe(redisKeys.cancelChannel);
}
