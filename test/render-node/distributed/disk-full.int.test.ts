import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../../helpers/node';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { requireSmallDisk, smallDisksPerTest } from '../../helpers/small-disk';
import { completedChunks, startWorkerProcess, stopWorker, type WorkerProcess } from '../../helpers/workers';
import { probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';
import { redisKeys } from '../../../src/render-node/distributed/protocol';
import { checkImageFile } from '../../../src/node-common/images/image-check';

const blenderPath = requireBlender();
const redisServer = requireRedis();
const canMount = requireSmallDisk();
const MiB = 1024 * 1024;
const ENDED = ['completed', 'failed', 'canceled'];
/** Large, noisy EXR frames (several MB each) that a small disk cannot hold for long. */
const BIG_EXR = { resolution: [1024, 1024], sampleCount: 1, outputFormat: 'OPEN_EXR', outputSettings: { exrCodec: 'ZIP', colorDepth: '32' } };

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
}

describe.skipIf(!blenderPath || !redisServer || !canMount)('distributed rendering on full disks (real Redis, workers, Blender, tmpfs)', () => {
  const disks = smallDisksPerTest();
  let redis: TestRedis;
  let work: string;
  let blender: BlenderInfo;
  let scene: Buffer;
  const workers: WorkerProcess[] = [];

  const startWorker = async (t: TestNode, name: string, cacheDir = join(work, `cache-${name}`)) => {
    const worker = await startWorkerProcess({ redis: redis.url, node: t.url, name, cacheDir, blender: blenderPath!, threads: 1 });
    workers.push(worker);
    return worker;
  };
  const workersOf = async (t: TestNode): Promise<any[]> => (await t.call('GET', '/node/workers')).json.workers ?? [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-dist-disk-'));
    redis = await startRedis(redisServer!);
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    scene = await readFile(await makeSampleScene(work, { frames: 12 }));
  });

  afterAll(async () => {
    await Promise.allSettled(workers.map((w) => stopWorker(w)));
    await redis?.dispose();
  });

  it("the node's disk filling up mid-job fails the job naming disk space within a minute; the workers stop", async () => {
    const disk = disks.mount(96);
    const t = disks.keep(
      await startTestNode({ blender, dataDir: join(disk.dir, 'data'), headroomBytes: 2 * MiB, reserveBytes: MiB, distributed: { redis: { url: redis.url }, chunkSize: 3, reconcileMs: 1000 } }),
    );
    const running = await Promise.all([startWorker(t, 'alpha'), startWorker(t, 'beta')]);
    try {
      const id = await startRenderJob(t, 'shot.blend', scene, BIG_EXR);
      await waitForJob(t, id, (j) => j.progress.completedFrames >= 1 || ENDED.includes(j.status), 180_000);
      await disk.fill(256 * 1024);
      const filledAt = Date.now();
      const failed = await waitForJob(t, id, (j) => ENDED.includes(j.status), 120_000);
      const seconds = (Date.now() - filledAt) / 1000;
      expect(failed.status).toBe('failed');
      expect(failed.failedReason).toMatchObject({ name: 'DiskFull', type: 'disk' });
      expect(failed.failedReason.message).toMatch(/^The render node ran out of disk space: (frame \d+|a compositor output of chunk \d+) could not be stored/);
      expect(seconds, 'the job fails within a minute of the disk filling up').toBeLessThan(60);
      expect(failed.progress.completedFrames).toBeLessThan(12);

      const idle = await until(() => workersOf(t), (ws) => ws.length === 2 && ws.every((w) => w.state === 'idle'), 'both workers to stop rendering the failed job', 30_000);
      expect(idle.map((w) => w.name).sort()).toEqual(['alpha', 'beta']);
      const framesDir = join(t.dataDir, 'jobs', id, 'frames');
      const files = (await readdir(framesDir)).filter((n) => !n.startsWith('.'));
      expect(files).toHaveLength(failed.progress.completedFrames);
      for (const f of files) expect(await checkImageFile(join(framesDir, f)), f).toMatchObject({ status: 'complete' });
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    } finally {
      await Promise.allSettled(running.map((w) => stopWorker(w)));
    }
  });

  it("a worker whose own disk fills mid-EXR hands its chunk back; the job completes with every frame from the other worker", async () => {
    const t = disks.keep(await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 3, reconcileMs: 1000 } }));
    const tinyDisk = disks.mount(3);
    const running = await Promise.all([startWorker(t, 'roomy'), startWorker(t, 'tiny', tinyDisk.dir)]);
    try {
      // Uncompressed: 16 MiB a frame, which the 3 MiB disk cuts short whatever the picture.
      const id = await startRenderJob(t, 'shot.blend', scene, { ...BIG_EXR, outputSettings: { exrCodec: 'NONE', colorDepth: '32' }, frameRanges: ['1-6'] });
      const tiny = await until(
        async () => (await workersOf(t)).find((w) => w.name === 'tiny'),
        (w) => w?.state === 'disk-full',
        'the small-disk worker to say its disk is full',
        120_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}\n${running[1]!.output().slice(-4000)}`);
      });
      expect(tiny.reason).toMatch(/^Disk full: .+ It takes no chunks until it has .+ free\.$/);
      expect(tiny.framesRendered).toBe(0);

      const done = await waitForJob(t, id, (j) => ENDED.includes(j.status), 300_000);
      expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
      expect(done.progress).toEqual({ completedFrames: 6, totalFrames: 6 });
      const framesDir = join(t.dataDir, 'jobs', id, 'frames');
      const files = (await readdir(framesDir)).filter((n) => !n.startsWith('.')).sort();
      expect(files).toEqual([1, 2, 3, 4, 5, 6].map((f) => `sample_000${f}.exr`));
      for (const f of files) expect(await checkImageFile(join(framesDir, f)), f).toMatchObject({ status: 'complete' });

      const chunks = await completedChunks(redis.url, id);
      expect(chunks.every((c) => c.returnvalue.worker === 'roomy'), JSON.stringify(chunks.map((c) => c.returnvalue))).toBe(true);
      expect(chunks.reduce((sum, c) => sum + c.returnvalue.rendered, 0)).toBe(6);
      const client = new Redis(redis.url);
      try {
        expect(await client.hgetall(redisKeys.failures(id)), 'a full disk is not counted as a failure of the worker').toEqual({});
      } finally {
        client.disconnect();
      }
      const after = (await workersOf(t)).find((w) => w.name === 'tiny');
      expect(after).toMatchObject({ state: 'disk-full', framesRendered: 0 });
      expect(tiny.reason).toBe(after.reason);
    } finally {
      await Promise.allSettled(running.map((w) => stopWorker(w)));
    }
  }, 420_000);
});
