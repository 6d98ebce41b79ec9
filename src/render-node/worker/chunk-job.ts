import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BlenderInfo } from '../blender';
import { blockedByHand, type ChunkData, describeFrames, JOB_KEY_TTL_SECONDS, liveWorkers, MAX_FAILURES_PER_WORKER, recordFailureBlock, redisKeys, routeChunk, tamperedReason, verifyChunk } from '../distributed';
import { type WorkerKeys } from '../worker-access';
import { renderChunk, type ChunkContext, type ChunkResult } from './chunk-renderer';
import { isDiskFullError } from '../disk';
import { WorkerDiskFullError, type DiskRoom } from './disk-room';
import { NodeClient } from './node-client';
import type { SceneCache } from './scene-cache';
import type { WorkerStatus } from './worker-status';

/** The worker is stopping: its chunk goes back to the queue for another worker. */
export class WorkerStopping extends Error {
  override readonly name = 'WorkerStopping';
}

/** What processing a chunk needs from its worker. */
export interface ChunkJobDeps {
  name: string;
  /** The tags this worker carries. */
  tags: readonly string[];
  blender: BlenderInfo;
  threads: number | null;
  /** Folder for the chunks' scratch folders. */
  workDir: string;
  scenes: SceneCache;
  /** The worker's disk room: a chunk its full disk cannot hold goes back to the queue. */
  room: DiskRoom;
  /** The node's address, from the worker's own settings. */
  nodeUrl: string;
  /** The keys of the worker secret: chunks are checked, and requests signed, with them. */
  keys: WorkerKeys;
  redis: Redis;
  status: WorkerStatus;
  log: Logger;
  onRedisError: (error: Error) => void;
}

/** How a chunk ended, with the worker that took it and its Blender version. */
export type ChunkOutcome = ChunkResult & { worker: string; blender: string };

/**
 * The BullMQ processor of a worker: reads a chunk, skips it when its job was canceled, hands it over
 * (delays it) when another worker should take it, else renders it; a failure is counted per worker
 * in Redis and rethrown with the worker's name and the frames.
 */
export function createChunkProcessor(deps: ChunkJobDeps): (job: Job, token?: string) => Promise<ChunkOutcome> {
  return async (job, token) => {
    const chunk = readChunk(deps, job);
    const stoppedResult = { outcome: 'stopped' as const, rendered: 0, worker: deps.name, blender: deps.blender.version, timings: { startedAt: Date.now(), blenderStartedAt: null, blenderEndedAt: null, endedAt: Date.now() } };
    if (await deps.redis.exists(redisKeys.canceled(chunk.jobId))) return stoppedResult;
    if (deps.room.full) {
      deps.log.info({ jobId: chunk.jobId, chunk: chunk.index }, 'the disk is full: handing a chunk over to another worker');
      return requeue(job, token);
    }
    if ((await routeFor(deps, chunk)) === 'hand-over') {
      deps.log.info({ jobId: chunk.jobId, chunk: chunk.index, blender: chunk.blender, engine: chunk.plan.engine, requires: chunk.requires }, 'handing a chunk over to another worker');
      await job.moveToDelayed(Date.now() + 1000 + Math.floor(Math.random() * 1000), token);
      throw new DelayedError();
    }
    return renderTaken(deps, job, token, chunk);
  };
}

/** The chunk of a queue entry once its signature holds; else the entry fails at once, naming the tampering. */
function readChunk(deps: ChunkJobDeps, job: Job): ChunkData {
  const verdict = verifyChunk(deps.keys, job.data, job.id);
  if (verdict.ok) return verdict.chunk;
  deps.log.error({ queueId: job.id, reason: verdict.reason }, 'refused a tampered chunk');
  throw new UnrecoverableError(tamperedReason(deps.name, job.id, verdict.reason));
}

/**
 * Whether this worker renders the chunk or hands it over: when it lacks a tag the job requires, its
 * Blender is not the job's version or cannot draw the chunk's engine, it is blocked for the job by
 * hand, or after failing the job too often.
 */
async function routeFor(deps: ChunkJobDeps, chunk: ChunkData): Promise<ReturnType<typeof routeChunk>> {
  const [workers, failures, blocked] = await Promise.all([liveWorkers(deps.redis), deps.redis.hgetall(redisKeys.failures(chunk.jobId)), blockedByHand(deps.redis, chunk.jobId)]);
  return routeChunk({
    chunk: { blender: chunk.blender, engine: chunk.plan.engine, requires: chunk.requires },
    self: { name: deps.name, blenderVersion: deps.blender.version, eevee: deps.blender.eeveeUsable, tags: deps.tags },
    others: workers,
    failures: Object.fromEntries(Object.entries(failures).map(([worker, n]) => [worker, Number(n)])),
    maxFailures: MAX_FAILURES_PER_WORKER,
    blocked,
  });
}

/** Render a chunk this worker has taken; when the worker stops meanwhile, the chunk goes back to the queue. */
async function renderTaken(deps: ChunkJobDeps, job: Job, token: string | undefined, chunk: ChunkData): Promise<ChunkOutcome> {
  const abort = new AbortController();
  deps.status.current = { jobId: chunk.jobId, frames: chunk.frames, frame: null, abort };
  void deps.status.report();
  deps.log.info({ jobId: chunk.jobId, chunk: chunk.index, frames: describeFrames(chunk.frames) }, 'rendering a chunk');
  try {
    const result = await renderChunk(chunk, chunkContext(deps, job), abort.signal);
    if (abort.signal.reason instanceof WorkerStopping) await requeue(job, token);
    return { ...result, worker: deps.name, blender: deps.blender.version };
  } catch (err) {
    if (err instanceof DelayedError) throw err;
    if (abort.signal.reason instanceof WorkerStopping) await requeue(job, token);
    if (err instanceof WorkerDiskFullError || isDiskFullError(err)) {
      const what = err instanceof WorkerDiskFullError ? err.message : `frames ${describeFrames(chunk.frames)} of a job could not be stored`;
      deps.log.warn({ jobId: chunk.jobId, chunk: chunk.index, err: err instanceof Error ? err.message : String(err) }, 'the disk is full: the chunk goes back to the queue');
      await deps.room.markFull(what);
      await requeue(job, token);
    }
    throw await chunkFailure(deps, chunk, err);
  } finally {
    deps.status.current = null;
    void deps.status.report();
  }
}

function chunkContext(deps: ChunkJobDeps, job: Job): ChunkContext {
  const { status } = deps;
  return {
    name: deps.name,
    blenderPath: deps.blender.path,
    threads: deps.threads,
    workDir: deps.workDir,
    scenes: deps.scenes,
    client: new NodeClient(deps.nodeUrl, deps.keys, undefined, deps.name),
    onRendering: () => void job.updateProgress({ stage: 'rendering' }).catch(() => {}),
    onFrameStarted: (frame) => {
      if (status.current) status.current.frame = frame;
    },
    onFrameDelivered: () => {
      status.framesRendered++;
      void status.report();
    },
  };
}

/** Put the chunk back in the queue at once, for another worker. */
async function requeue(job: Job, token: string | undefined): Promise<never> {
  await job.moveToDelayed(Date.now(), token);
  throw new DelayedError();
}

/** Count the failure against this worker in Redis and word it with the worker's name and the frames. */
async function chunkFailure(deps: ChunkJobDeps, chunk: ChunkData, err: unknown): Promise<Error> {
  deps.status.chunksFailed++;
  const counted = await deps.redis
    .multi()
    .hincrby(redisKeys.failures(chunk.jobId), deps.name, 1)
    .expire(redisKeys.failures(chunk.jobId), JOB_KEY_TTL_SECONDS)
    .exec()
    .catch(deps.onRedisError);
  const failures = Number(counted?.[0]?.[1] ?? 0);
  if (failures >= MAX_FAILURES_PER_WORKER) {
    deps.log.warn({ jobId: chunk.jobId, failures }, 'failed this job too often: blocked for it while another worker can take its chunks');
    await recordFailureBlock(deps.redis, chunk.jobId, deps.name).catch(deps.onRedisError);
  }
  const message = err instanceof Error ? err.message : String(err);
  deps.log.warn({ jobId: chunk.jobId, chunk: chunk.index, err: message }, 'chunk failed');
  return new Error(message.startsWith(`Worker "`) ? message : `Worker "${deps.name}" could not render frames ${describeFrames(chunk.frames)}: ${message}`, { cause: err });
}
