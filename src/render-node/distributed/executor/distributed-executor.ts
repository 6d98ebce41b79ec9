import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NodeWorkers, WorkerInfo } from '../../../shared/api';
import { chooseBlenderVersion } from '../../../shared/blender-versions';
import type { Renderer } from '../../plan';
import type { ExecutorOutcome, RenderExecutor, RenderTask } from '../../jobs';
import { diskFullReason, isDiskFullError } from '../../disk';
import { autoChunkSize } from '../chunk-plan';
import { buildChunkData, chunkFailureReason } from '../chunk-jobs';
import type { ChunkRecord } from '../chunks-repo';
import { CHUNK_ATTEMPTS, CHUNK_QUEUE, chunkJobId, JOB_KEY_TTL_SECONDS, parseChunkJobId, REDIS_PREFIX, redisKeys, TAMPERED_MARK } from '../protocol';
import { openRedis } from '../redis-connection';
import { redactRedisUrl, workerKeys, type WorkerKeys } from '../../worker-access';
import type { ActiveRender, DistributedExecutorDeps, DistributedOptions } from './executor-options';
import { redisUnanswered, withinTimeout } from './redis-timeout';
import { sceneFingerprint } from './scene-fingerprint';
import { chunkPriority, followPriority, setChunkPriority } from './chunk-priority';
import { workersFor } from './worker-capacity';
import { recordFarmChoice } from './farm-choice';
import { stopEverywhere } from './stop-everywhere';
import type { JobRecord } from '../../store';
import { liveWorkers } from '../worker-registry';
import { waitingNote } from '../waiting-note';
import { requeueChunks } from './requeue-chunks';
import { blockedByHand, blockWorker, unblockWorker } from '../worker-blocks';
import { missingTags } from '../../plan';
import { resignChunks, sameTags } from './requires-change';
import { distributedWorkersView } from './workers-view';

interface Entry extends ActiveRender {
  settle: (outcome: ExecutorOutcome) => void;
  settled: boolean;
  reconciling: Promise<void> | null;
  again: boolean;
  /** Its unfinished chunks waiting in the queue, and those a worker holds, at the last check. */
  queued: { waiting: number; active: number };
  /** Why its chunks wait, when something other than busy workers holds them back. */
  note: string | null;
  /** The job's priority its queued chunks have (followed when it changes). */
  priority: number;
  /** The worker tags its chunks are signed with (the job's, followed when they change). */
  requires: string[];
  /** Chunks in the queue may still be signed with the tags the job required before. */
  resigning: boolean;
}

/** A chunk entry that finished without delivering its frames is put in the queue again at most this often. */
const MAX_GENERATIONS = 3;
/** Signed chunk URLs stay valid this long (a chunk may wait in the queue behind long jobs). */
const CHUNK_URL_TTL_MS = 7 * 24 * 3600_000;

/**
 * Renders on workers through BullMQ: splits a job's frames into chunks (kept in SQLite so a restart
 * keeps the split), puts each in the queue under an id per chunk, and waits until every frame has
 * been uploaded. The queue is checked against the node's own record on events and every few seconds,
 * so chunks lost with a Redis restart are put back and a chunk that failed for good fails the job.
 */
export class DistributedExecutor implements RenderExecutor {
  readonly mode = 'distributed';
  private redis: Redis | null = null;
  private eventsRedis: Redis | null = null;
  private queue: Queue | null = null;
  private events: QueueEvents | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly active = new Map<string, Entry>();
  /** The connected workers at the last check (null: not known). */
  private seen: WorkerInfo[] | null = null;
  private lastRedisError = 0;
  private readonly onRedisError = (error: Error) => {
    if (Date.now() - this.lastRedisError < 10_000) return;
    this.lastRedisError = Date.now();
    this.deps.log.warn({ err: error.message, redis: this.redisLabel }, 'Redis connection problem; retrying');
  };

  /** The keys of the worker secret: chunks are signed, and workers' requests checked, with them. */
  readonly workerKeys: WorkerKeys;

  constructor(
    private readonly options: DistributedOptions,
    private readonly deps: DistributedExecutorDeps,
  ) {
    if (!options.workerSecret) throw new Error('Rendering on workers needs a worker secret.');
    this.workerKeys = workerKeys(options.workerSecret);
  }

  /** The Redis the node uses, without its password. */
  get redisLabel(): string {
    return redactRedisUrl(this.options.redis.url);
  }

  async start(): Promise<void> {
    const onError = this.onRedisError;
    this.redis = openRedis(this.options.redis, onError);
    this.eventsRedis = openRedis(this.options.redis, onError);
    this.queue = new Queue(CHUNK_QUEUE, { connection: this.redis, prefix: REDIS_PREFIX });
    this.queue.on('error', onError);
    this.events = new QueueEvents(CHUNK_QUEUE, { connection: this.eventsRedis, prefix: REDIS_PREFIX });
    this.events.on('error', onError);
    const touched = ({ jobId }: { jobId: string }) => {
      const parsed = parseChunkJobId(jobId);
      const entry = parsed && this.active.get(parsed.jobId);
      if (entry) void this.reconcile(entry);
    };
    this.events.on('failed', touched);
    this.events.on('completed', touched);
    this.events.on('progress', ({ jobId, data }) => {
      const parsed = parseChunkJobId(jobId);
      const entry = parsed && this.active.get(parsed.jobId);
      if (!entry || typeof data !== 'object' || data === null || !('stage' in data) || data.stage !== 'rendering') return;
      entry.note = null;
      entry.task.onStarted();
    });
    this.timer = setInterval(() => void this.tick(), this.options.reconcileMs ?? 5000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const entry of this.active.values()) this.finish(entry, { kind: 'stopped' });
    await Promise.allSettled([this.events?.close(), this.queue?.close()]);
    await Promise.allSettled([this.redis?.quit(), this.eventsRedis?.quit()]);
  }

  async render(task: RenderTask): Promise<ExecutorOutcome> {
    const { job, plan } = task;
    if (!job.sceneFile?.scenePath) return { kind: 'failed', reason: { name: 'InternalError', type: 'internal', message: 'The job has no scene to render.' } };
    const workers = await liveWorkers(this.requireRedis()).catch(() => []);
    // A scene that simulates without a bake renders in one run from its first frame: one chunk.
    const size = plan.oneRun ? plan.frames.length : (this.options.chunkSize ?? autoChunkSize(plan.frames.length, workers.length));
    const chunks = this.deps.chunks.ensure(job.id, plan.frames, size, plan.frameOrder === 'spread' ? workers.length : 1);
    const scene = await sceneFingerprint(job, this.deps.chunks, this.deps.uploadPath);
    return new Promise<ExecutorOutcome>((resolve) => {
      const entry: Entry = {
        task,
        chunks: new Map(chunks.map((c) => [c.index, c])),
        scene,
        receiving: new Set(),
        blender: this.deps.chunks.blender(job.id),
        settled: false,
        reconciling: null,
        again: false,
        queued: { waiting: 0, active: 0 },
        note: null,
        priority: this.deps.jobs.get(job.id)?.priority ?? job.priority,
        requires: [...job.requires],
        resigning: false,
        settle: resolve,
      };
      if (task.signal.aborted) return resolve({ kind: 'stopped' });
      task.signal.addEventListener('abort', () => this.finish(entry, { kind: 'stopped' }), { once: true });
      this.active.set(job.id, entry);
      this.deps.log.info({ jobId: job.id, chunks: chunks.length, chunkSize: size, workers: workers.length }, 'render handed to workers');
      void this.reconcile(entry);
    });
  }

  /** The render of a job the node is coordinating now, if any (for frame uploads). */
  activeRender(jobId: string): ActiveRender | null {
    return this.active.get(jobId) ?? null;
  }

  /** A job's priority or tags changed: its chunks waiting in the queue follow them now (through the render's check when the node coordinates it). */
  async reprioritize(jobId: string, priority: number): Promise<void> {
    const entry = this.active.get(jobId);
    await (entry ? this.reconcile(entry) : followPriority(this.requireQueue(), jobId, this.deps.chunks.list(jobId), null, priority));
  }

  /** Whether a worker holds one of the render's chunks, at the last check. */
  working = (jobId: string): boolean => (this.active.get(jobId)?.queued.active ?? 0) > 0;

  /** How many of the workers seen at the last check can take the job's chunks; null before a check. */
  capacityFor = (job: JobRecord): number | null => this.seen && workersFor(job, this.active.get(job.id)?.blender ?? this.deps.chunks.blender(job.id), this.seen);

  /** Why a render's chunks wait in the queue, when it is not only that the workers are busy. */
  statusMessage(jobId: string): string | null {
    return this.active.get(jobId)?.note ?? null;
  }

  /** The node's disk cannot hold a file of a render: the render fails for lack of space (the runner then stops its chunks). */
  diskFull(jobId: string, what: string): void {
    const entry = this.active.get(jobId);
    if (!entry) return;
    this.deps.log.warn({ jobId, what }, "the node's disk is full: the render fails");
    this.finish(entry, { kind: 'failed', reason: diskFullReason(what) });
  }

  /** Told after a frame was counted: completes the render once every frame is in. */
  frameCounted(jobId: string): void {
    const entry = this.active.get(jobId);
    if (entry && this.deps.chunks.recordedCount(jobId) >= entry.task.plan.frames.length) {
      this.finish(entry, { kind: 'finished', exitCode: 0, errorTail: '' });
    }
  }

  async cancel(jobId: string): Promise<void> {
    const entry = this.active.get(jobId);
    if (entry) this.finish(entry, { kind: 'stopped' });
    await this.stopEverywhere(jobId).catch((err: unknown) => this.deps.log.warn({ jobId, err }, 'could not tell the workers to stop'));
  }

  /** Before a requeue of a job that ended: its frames go into new chunks, and workers may take them again. */
  async requeue(jobId: string, frames: readonly number[]): Promise<void> {
    await requeueChunks({ redis: this.requireRedis(), chunks: this.deps.chunks, jobId, frames, chunkSize: this.options.chunkSize });
  }

  /** The Blenders of the connected render workers; null when Redis does not answer in time. */
  async renderers(): Promise<Renderer[] | null> {
    const workers = await withinTimeout(liveWorkers(this.requireRedis()).catch(() => null), () => null);
    return workers?.map((w) => ({ version: w.blenderVersion, eevee: w.eevee ?? null })) ?? null;
  }

  /** The render workers (live, and for a day those that stopped), the chunks waiting for them, and the blocks. */
  async workersView(): Promise<NodeWorkers> {
    const view = distributedWorkersView({ queue: this.requireQueue(), redis: this.requireRedis(), redisLabel: this.redisLabel, jobStatus: (id) => this.deps.chunks.jobStatus(id) });
    return withinTimeout(view, () => redisUnanswered('The render workers cannot be listed'));
  }

  /** Keep a worker from a job (or every job, `jobId` null) by hand, or let it take them again; answers the worker list. */
  async setWorkerBlock(block: boolean, worker: string, jobId: string | null): Promise<NodeWorkers> {
    const redis = this.requireRedis();
    await withinTimeout(block ? blockWorker(redis, worker, jobId, this.deps.now()) : unblockWorker(redis, worker, jobId), () => redisUnanswered(`The worker cannot be ${block ? 'blocked' : 'unblocked'}`));
    return this.workersView();
  }

  private finish(entry: Entry, outcome: ExecutorOutcome): void {
    if (entry.settled) return;
    entry.settled = true;
    if (this.active.get(entry.task.job.id) === entry) this.active.delete(entry.task.job.id);
    entry.settle(outcome);
  }

  private async tick(): Promise<void> {
    this.seen = await liveWorkers(this.requireRedis()).catch(() => null);
    for (const entry of this.active.values()) await this.reconcile(entry);
    await this.noteWaiting().catch((err: unknown) => this.onRedisError(err instanceof Error ? err : new Error(String(err))));
  }

  /**
   * Say why renders wait ({@link waitingNote}): those whose chunks wait in the queue, and those with no
   * Blender version chosen yet because no connected worker can open their scene.
   */
  private async noteWaiting(): Promise<void> {
    const entries = [...this.active.values()];
    const held = entries.filter((e) => e.blender === null || e.queued.waiting > 0);
    for (const entry of entries) if (!held.includes(entry)) entry.note = null;
    if (held.length === 0) return;
    const paused = await this.requireQueue().isPaused();
    const workers = await liveWorkers(this.requireRedis());
    for (const entry of held) {
      const { job, plan } = entry.task;
      const blocked = await blockedByHand(this.requireRedis(), job.id);
      entry.note = waitingNote({ blender: entry.blender, saved: job.analysis?.savedWithBlender ?? null, engine: plan.engine, queued: entry.queued, requires: entry.requires, blocked }, workers, paused);
    }
  }

  /**
   * Choose, once, the Blender version every chunk of a render is rendered with: the one the render
   * asked for, else the lowest one of the connected workers at or above the scene's (kept in SQLite, so
   * a restart keeps it, and in the job's finalConfig). False while no connected worker can open the
   * scene: its chunks are not queued, and the render waits.
   */
  private async chooseBlender(entry: Entry): Promise<boolean> {
    const jobId = entry.task.job.id;
    const asked = entry.task.plan.blender ?? null;
    const saved = entry.task.job.analysis?.savedWithBlender ?? null;
    const tagged = (await liveWorkers(this.requireRedis())).filter((w) => missingTags(entry.requires, w.tags).length === 0);
    const chosen = asked ?? chooseBlenderVersion(saved, tagged.map((w) => w.blenderVersion));
    if (chosen === null) return false;
    this.deps.chunks.setBlender(jobId, chosen);
    entry.blender = this.deps.chunks.blender(jobId) ?? chosen;
    if (asked === null) recordFarmChoice(this.deps.jobs, jobId, entry.blender);
    this.deps.log.info({ jobId, blender: entry.blender, asked }, 'the render is rendered with one Blender version');
    return true;
  }

  /** Check a render's chunks against the queue; runs once at a time per render, again when asked meanwhile. */
  private reconcile(entry: Entry): Promise<void> {
    if (entry.reconciling) {
      entry.again = true;
      return entry.reconciling;
    }
    entry.reconciling = (async () => {
      do {
        entry.again = false;
        try {
          await this.reconcileOnce(entry);
        } catch (err) {
          if (isDiskFullError(err)) this.finish(entry, { kind: 'failed', reason: diskFullReason("the render's chunks could not be recorded") });
          else this.onRedisError(err instanceof Error ? err : new Error(String(err)));
        }
      } while (entry.again && !entry.settled);
      entry.reconciling = null;
    })();
    return entry.reconciling;
  }

  private async reconcileOnce(entry: Entry): Promise<void> {
    const jobId = entry.task.job.id;
    entry.priority = (await followPriority(this.requireQueue(), jobId, entry.chunks.values(), entry.priority, this.deps.jobs.get(jobId)?.priority)) ?? entry.priority;
    const have = this.deps.chunks.recordedFrames(jobId);
    const unfinished = [...entry.chunks.values()].filter((c) => c.frames.some((f) => !have.has(f)));
    if (unfinished.length === 0) return this.finish(entry, { kind: 'finished', exitCode: 0, errorTail: '' });
    const requires = this.deps.jobs.get(jobId)?.requires ?? entry.requires;
    if (!sameTags(requires, entry.requires)) [entry.requires, entry.resigning] = [[...requires], true];
    if (entry.blender === null && !(await this.chooseBlender(entry))) return;
    const queue = this.requireQueue();
    if (entry.resigning) entry.resigning = await resignChunks(queue, jobId, unfinished, entry.requires, (c) => this.enqueue(entry, c), this.deps.log);
    const queued = { waiting: 0, active: 0 };
    entry.queued = queued;
    for (const chunk of unfinished) {
      if (entry.settled) return;
      const id = chunkJobId(jobId, chunk.index, chunk.generation);
      const state = await queue.getJobState(id);
      if (state === 'waiting') await setChunkPriority(queue, [id], chunkPriority(entry.priority));
      if (state === 'waiting' || state === 'prioritized' || state === 'delayed') queued.waiting++;
      else if (state === 'active') queued.active++;
      if (state === 'unknown') {
        await this.enqueue(entry, chunk);
      } else if (state === 'failed') {
        const failed = await queue.getJob(id);
        if (failed?.failedReason?.includes(TAMPERED_MARK)) {
          this.deps.log.warn({ jobId, chunk: chunk.index, reason: failed.failedReason }, 'a worker refused a chunk as tampered; putting it back signed anew');
          if (await this.putBack(entry, chunk, have, failed.failedReason)) continue;
          return;
        }
        const failures = await this.requireRedis().hgetall(redisKeys.failures(jobId));
        const reason = chunkFailureReason({
          frames: chunk.frames,
          lastError: failed?.failedReason ?? null,
          attempts: failed?.attemptsMade ?? CHUNK_ATTEMPTS,
          failures: Object.fromEntries(Object.entries(failures).map(([name, n]) => [name, Number(n)])),
        });
        this.deps.log.warn({ jobId, chunk: chunk.index, reason: reason.message }, 'a chunk failed for good');
        await this.stopEverywhere(jobId).catch(() => {});
        return this.finish(entry, { kind: 'failed', reason });
      } else if (state === 'completed' && !(await this.putBack(entry, chunk, have, 'the workers finished without delivering these frames'))) {
        return;
      }
    }
  }

  /** Put a chunk in the queue again in its next generation; false (the render failed) past {@link MAX_GENERATIONS}. */
  private async putBack(entry: Entry, chunk: ChunkRecord, have: Set<number>, why: string): Promise<boolean> {
    const generation = this.deps.chunks.nextGeneration(entry.task.job.id, chunk.index);
    if (generation >= MAX_GENERATIONS) {
      this.finish(entry, { kind: 'failed', reason: chunkFailureReason({ frames: chunk.frames.filter((f) => !have.has(f)), lastError: why, attempts: generation, failures: {} }) });
      return false;
    }
    const next = { ...chunk, generation };
    entry.chunks.set(chunk.index, next);
    await this.enqueue(entry, next);
    return true;
  }

  private async enqueue(entry: Entry, chunk: ChunkRecord): Promise<void> {
    const { job, plan } = entry.task;
    if (entry.blender === null) throw new Error(`a chunk of job ${job.id} was to be queued before its Blender version was chosen`);
    const data = buildChunkData({
      workspaceId: this.deps.workspaceId,
      jobId: job.id,
      index: chunk.index,
      generation: chunk.generation,
      frames: chunk.frames,
      blender: entry.blender,
      requires: entry.requires,
      scene: entry.scene,
      plan,
      signer: this.deps.signer,
      keys: this.workerKeys,
      expiresAt: new Date(this.deps.now().getTime() + CHUNK_URL_TTL_MS),
    });
    await this.requireQueue().add('chunk', data, {
      jobId: chunkJobId(job.id, chunk.index, chunk.generation),
      priority: chunkPriority(entry.priority),
      attempts: CHUNK_ATTEMPTS,
      backoff: { type: 'fixed', delay: 1000 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: JOB_KEY_TTL_SECONDS },
    });
  }

  /** Tell every worker to stop the job, and take its chunks that no worker holds off the queue. */
  private stopEverywhere(jobId: string): Promise<void> {
    return stopEverywhere(this.requireRedis(), this.requireQueue(), jobId, this.deps.chunks.list(jobId));
  }

  private requireRedis(): Redis {
    if (!this.redis) throw new Error('The distributed executor has not started.');
    return this.redis;
  }

  private requireQueue(): Queue {
    if (!this.queue) throw new Error('The distributed executor has not started.');
    return this.queue;
  }
}
