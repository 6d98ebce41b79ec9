import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { runCli } from '../../helpers/cli';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../../helpers/node';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { startWorkerProcess, stopWorker, type WorkerProcess } from '../../helpers/workers';
import { cliSetup } from '../../cli/helpers/cli-setup';
import { probeBlender } from '../../../src/render-node/blender/probe';
import { CHUNK_QUEUE, REDIS_PREFIX } from '../../../src/render-node/distributed/protocol';

const blenderPath = requireBlender();
const redisServer = requireRedis();

describe.skipIf(!blenderPath || !redisServer)('a paused render queue (real Redis, a worker, Blender)', () => {
  let redis: TestRedis;
  let t: TestNode;
  let worker: WorkerProcess;
  let connection: Redis;
  let queue: Queue;

  beforeAll(async () => {
    const work = await mkdtemp(join(tmpdir(), 'rd-dist-paused-'));
    redis = await startRedis(redisServer!);
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }), distributed: { redis: { url: redis.url }, chunkSize: 2, reconcileMs: 1000 } });
    worker = await startWorkerProcess({ redis: redis.url, node: t.url, name: 'gamma', cacheDir: join(work, 'cache'), blender: blenderPath!, threads: 1 });
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

  it('shows why a job waits while the queue is paused, through the API and `status`, and renders once it is resumed', async () => {
    const scene = await readFile(await makeSampleScene(await mkdtemp(join(tmpdir(), 'rd-paused-scene-')), { frames: 4 }));
    await queue.pause();
    const id = await startRenderJob(t, 'shot.blend', scene, {});
    const waiting = await waitForJob(t, id, (j) => j.statusMessage !== null, 30_000);
    expect(waiting.status).toBe('booting');
    expect(waiting.statusMessage).toBe('Waiting: the render queue is paused');
    expect(waiting.progress).toEqual({ completedFrames: 0, totalFrames: 4 });

    const cli = await cliSetup(t.url, t.key);
    const shown = await runCli(['status', id], { env: cli.env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^Status +booting .*0\/4 frames$/m);
    expect(shown.stdout).toMatch(/^Note +Waiting: the render queue is paused$/m);
    const json = await runCli(['status', id, '--json'], { env: cli.env });
    expect(JSON.parse(json.stdout).job).toMatchObject({ status: 'booting', statusMessage: 'Waiting: the render queue is paused' });

    await queue.resume();
    const done = await waitForJob(t, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 180_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.statusMessage).toBeNull();
    expect(done.progress).toEqual({ completedFrames: 4, totalFrames: 4 });
  });
});
