import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { WorkerInfo } from '../../shared/api';
import type { BlenderInfo } from '../blender/probe';
import { routeChunk } from '../distributed/blender-versions';
import { describeFrames } from '../distributed/chunk-plan';
import { CHUNK_QUEUE, chunkDataSchema, JOB_KEY_TTL_SECONDS, MAX_FAILURES_PER_WORKER, REDIS_PREFIX, redisKeys, WORKER_HEARTBEAT_MS } from '../distributed/protocol';
import { checkRedis, openRedis, redactRedisUrl, type RedisTarget } from '../distributed/redis-connection';
import { liveWorkers, removeWorker, reportWorker } from '../distributed/worker-registry';
import { renderChunk, type ChunkResult } from './chunk-renderer';
import { stopLeftovers } from './leftovers';
import { JobStoppedError, NodeClient } from './node-client';
import { SceneCache } from './scene-cache';

/** How to run a render worker. */
export interface RenderWorkerOptions {
  redis: RedisTarget;
  /** Shown in the node's worker list and in failure reasons; several workers may share one. */
  name: string;
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

/** The worker is stopping: its chunk goes back to the queue for another worker. */
class WorkerStopping extends Error {
  override readonly name = 'WorkerStopping';
}

interface Current {
  jobId: string;
  frames: number[];
  frame: number | null;
  abort: AbortController;
}

/**
 * Take frame chunks from the node's BullMQ queue one at a time and render them with this machine's
 * Blender. Reports itself in Redis every few seconds (the node lists it), stops a job's Blender when
 * the node publishes a cancel, hands a chunk over to another worker when its scene needs a newer
 * Blender or when it has failed that job repeatedly, and counts its failures per job in Redis.
 */
export async function startRenderWorker(options: RenderWorkerOptions): Promise<RenderWorker> {
  const { log, name, blender } = options;
  await checkRedis(options.redis);
  const workDir = join(options.cacheDir, 'work');
  await stopLeftovers(workDir, join(options.cacheDir, 'scenes'), log);

  let lastError = 0;
  const onRedisError = (error: Error) => {
    if (Date.now() - lastError < 10_000) return;
    lastError = Date.now();
    log.warn({ err: error.message, redis: redactRedisUrl(options.redis.url) }, 'Redis connection problem; retrying');
  };
  const redis = openRedis(options.redis, onRedisError);
  const subscriber = openRedis(options.redis, onRedisError);
  const bullRedis = openRedis(options.redis, onRedisError);

  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const startedAt = new Date().toISOString();
  let current: Current | null = null;
  let framesRendered = 0;
  let stopping = false;
  const info = (): WorkerInfo => ({
    id,
    name,
    host: hostname(),
    blenderVersion: blender.version,
    devices: blender.cyclesDevices,
    threads: options.threads,
    state: current ? 'rendering' : 'idle',
    current: current ? { jobId: current.jobId, frames: current.frames, frame: current.frame } : null,
    startedAt,
    lastSeenAt: new Date().toISOString(),
    framesRendered,
  });
  const report = () => reportWorker(redis, info()).catch(onRedisError);
  await report();
  const heartbeat = setInterval(() => void report(), WORKER_HEARTBEAT_MS);

  subscriber.on('message', (_channel: string, jobId: string) => {
    if (current?.jobId === jobId) {
      log.info({ jobId }, 'job canceled: stopping Blender');
      current.abort.abort(new JobStoppedError('canceled'));
    }
  });
  await subscriber.subscribe(redisKeys.cancelChannel);

  const nodeUrl = (workspaceId: string) => async () => {
    const url = await redis.get(redisKeys.nodeUrl(workspaceId));
    if (!url) throw new Error('the node has not published its address in Redis');
    return url;
  };
  const scenes = new SceneCache(join(options.cacheDir, 'scenes'));

  const processChunk = async (job: Job, token?: string): Promise<ChunkResult & { worker: string }> => {
    const parsed = chunkDataSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`Worker "${name}" cannot read this chunk (${parsed.error.issues[0]?.message ?? 'bad data'}); it was made by another Renderdrop version.`);
    const chunk = parsed.data;
    const stoppedResult = { outcome: 'stopped' as const, rendered: 0, worker: name, timings: { startedAt: Date.now(), blenderStartedAt: null, blenderEndedAt: null, endedAt: Date.now() } };
    if (await redis.exists(redisKeys.canceled(chunk.jobId))) return stoppedResult;
    const [workers, failures] = await Promise.all([liveWorkers(redis), redis.hgetall(redisKeys.failures(chunk.jobId))]);
    const routing = routeChunk({
      minimum: chunk.minBlender,
      self: { name, blenderVersion: blender.version },
      others: workers,
      failures: Object.fromEntries(Object.entries(failures).map(([worker, n]) => [worker, Number(n)])),
      maxFailures: MAX_FAILURES_PER_WORKER,
    });
    if (routing === 'hand-over') {
      log.info({ jobId: chunk.jobId, chunk: chunk.index, needs: chunk.minBlender }, 'handing a chunk over to another worker');
      await job.moveToDelayed(Date.now() + 1000 + Math.floor(Math.random() * 1000), token);
      throw new DelayedError();
    }
    const abort = new AbortController();
    current = { jobId: chunk.jobId, frames: chunk.frames, frame: null, abort };
    void report();
    log.info({ jobId: chunk.jobId, chunk: chunk.index, frames: describeFrames(chunk.frames) }, 'rendering a chunk');
    try {
      const result = await renderChunk(
        chunk,
        {
          name,
          blenderPath: blender.path,
          threads: options.threads,
          workDir,
          scenes,
          client: new NodeClient(nodeUrl(chunk.node)),
          onRendering: () => void job.updateProgress({ stage: 'rendering' }).catch(() => {}),
          onFrameStarted: (frame) => {
            if (current) current.frame = frame;
          },
          onFrameDelivered: () => {
            framesRendered++;
            void report();
          },
        },
        abort.signal,
      );
      if (abort.signal.reason instanceof WorkerStopping) {
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      return { ...result, worker: name };
    } catch (err) {
      if (err instanceof DelayedError) throw err;
      if (abort.signal.reason instanceof WorkerStopping) {
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      await redis
        .multi()
        .hincrby(redisKeys.failures(chunk.jobId), name, 1)
        .expire(redisKeys.failures(chunk.jobId), JOB_KEY_TTL_SECONDS)
        .exec()
        .catch(onRedisError);
      const message = err instanceof Error ? err.message : String(err);
      log.warn({ jobId: chunk.jobId, chunk: chunk.index, err: message }, 'chunk failed');
      throw new Error(message.startsWith(`Worker "`) ? message : `Worker "${name}" could not render frames ${describeFrames(chunk.frames)}: ${message}`, { cause: err });
    } finally {
      current = null;
      void report();
    }
  };

  const worker = new Worker(CHUNK_QUEUE, processChunk, {
    connection: bullRedis,
    prefix: REDIS_PREFIX,
    concurrency: 1,
    lockDuration: options.lockMs ?? 15_000,
    stalledInterval: Math.max(1000, Math.round((options.lockMs ?? 15_000) * 0.66)),
    maxStalledCount: 2,
  });
  worker.on('error', onRedisError);

  return {
    id,
    async close() {
      if (stopping) return;
      stopping = true;
      current?.abort.abort(new WorkerStopping('worker stopping'));
      await worker.close();
      clearInterval(heartbeat);
      await removeWorker(redis, id).catch(() => {});
      await Promise.allSettled([redis.quit(), subscriber.quit(), bullRedis.quit()]);
    },
  };
}
