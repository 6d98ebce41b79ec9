import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../../helpers/node';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { startWorkerProcess, stopWorker, type WorkerProcess } from '../../helpers/workers';
import { probeBlender } from '../../../src/render-node/blender/probe';
import { CHUNK_QUEUE, parseChunkJobId, REDIS_PREFIX } from '../../../src/render-node/distributed/protocol';

const blenderPath = requireBlender();
const redisServer = requireRedis();
const ENDED = ['completed', 'failed', 'canceled'];

describe.skipIf(!blenderPath || !redisServer)('priorities on render workers (real Redis, BullMQ, a worker, Blender)', () => {
  let redis: TestRedis;
  let t: TestNode;
  let worker: WorkerProcess | null = null;
  let connection: Redis;
  let queue: Queue;
  let work: string;
  let scene: Buffer;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-dist-priority-'));
    scene = await readFile(await makeSampleScene(work, { frames: 4 }));
    redis = await startRedis(redisServer!);
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }), distributed: { redis: { url: redis.url }, chunkSize: 2, reconcileMs: 500 } });
    connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    queue = new Queue(CHUNK_QUEUE, { connection, prefix: REDIS_PREFIX });
  });

  afterAll(async () => {
    await queue?.close();
    connection?.disconnect();
    if (worker) await stopWorker(worker);
    await t?.stop();
    await redis?.dispose();
  });

  /** The jobs of the chunks waiting in BullMQ, in the order workers take them. */
  async function takeOrder(): Promise<string[]> {
    return (await queue.getPrioritized()).map((c) => parseChunkJobId(c.id!)?.jobId ?? `?${c.id}`);
  }

  /** When a job first entered `rendering` (ms). */
  async function renderingSince(id: string): Promise<number> {
    const job = (await t.call('GET', `/jobs/${id}`)).json.data;
    const at = job.timeline.find((e: { status: string }) => e.status === 'rendering')?.at;
    if (!at) throw new Error(`job ${id} never rendered: ${JSON.stringify(job.timeline)}`);
    return Date.parse(at);
  }

  it('says why a render waits with no worker and no start time, then drops those words as soon as a worker renders it', async () => {
    const id = await startRenderJob(t, 'shot.blend', scene, {});
    const waiting = await waitForJob(t, id, (j) => j.statusMessage !== null, 30_000);
    expect(waiting).toMatchObject({ status: 'booting', statusMessage: 'Waiting: no render worker is connected', waiting: { jobsAhead: 0, startsInSeconds: null } });

    worker = await startWorkerProcess({ redis: redis.url, node: t.url, name: 'delta', cacheDir: join(work, 'cache'), blender: blenderPath!, threads: 1 });
    const seen: { status: string; statusMessage: string | null; done: number }[] = [];
    const done = await waitForJob(
      t,
      id,
      (j) => {
        seen.push({ status: j.status, statusMessage: j.statusMessage, done: j.progress.completedFrames });
        return ENDED.includes(j.status);
      },
      180_000,
    );
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    const rendering = seen.filter((s) => s.status === 'rendering');
    expect(rendering.length).toBeGreaterThan(0);
    expect(rendering.filter((s) => s.statusMessage !== null)).toEqual([]);
    expect(done.statusMessage).toBeNull();
    expect(done.waiting).toBeNull();
  });

  it('hands a later job of a higher priority to the worker before the waiting chunks of earlier jobs, and reorders them when a priority changes', async () => {
    expect(worker, 'the worker of the first test').not.toBeNull();
    await queue.pause();
    // The same scene under three names (a worker's cache keeps it once, and hands it over under each name).
    const early = await startRenderJob(t, 'early.blend', scene, {});
    const middle = await startRenderJob(t, 'middle.blend', scene, { priority: 50 });
    const urgent = await startRenderJob(t, 'urgent.blend', scene, { priority: 90 });
    const deadline = Date.now() + 30_000;
    while ((await takeOrder()).length < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await takeOrder()).toEqual([urgent, urgent, early, early, middle, middle]);
    const queued = await waitForJob(t, early, (j) => j.waiting?.jobsAhead === 1, 10_000);
    expect(queued.status).toBe('booting');

    const raised = await t.call('POST', `/node/jobs/${middle}/settings`, { priority: 100 });
    expect(raised.status, JSON.stringify(raised.json)).toBe(200);
    expect(raised.json).toMatchObject({ priority: 100, waiting: { jobsAhead: 0 } });
    // The answer comes once the waiting chunks have their new place.
    expect(await takeOrder()).toEqual([middle, middle, urgent, urgent, early, early]);
    expect((await t.call('GET', `/jobs/${early}`)).json.data.waiting.jobsAhead).toBe(2);

    await queue.resume();
    for (const id of [early, middle, urgent]) {
      const done = await waitForJob(t, id, (j) => ENDED.includes(j.status), 240_000);
      expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
      expect(done.progress).toEqual({ completedFrames: 4, totalFrames: 4 });
    }
    const [m, u, e] = await Promise.all([middle, urgent, early].map(renderingSince));
    expect(m).toBeLessThan(u!);
    expect(u).toBeLessThan(e!);
  });
});
