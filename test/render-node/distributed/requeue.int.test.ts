import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../../helpers/node';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { startWorkerProcess, stopWorker, type WorkerProcess } from '../../helpers/workers';
import { decodePng } from '../../helpers/png-pixels';
import { redisKeys } from '../../../src/render-node/distributed/protocol';
import { probeBlender } from '../../../src/render-node/blender/probe';

const blenderPath = requireBlender();
const redisServer = requireRedis();
const ended = (j: { status: string }) => ['completed', 'failed', 'canceled'].includes(j.status);

describe.skipIf(!blenderPath || !redisServer)('requeue in the same job on render workers (real Redis, one real worker)', () => {
  let redis: TestRedis;
  let keys: Redis;
  let work: string;
  let scene: Buffer;
  let t: TestNode;
  let worker: WorkerProcess | null = null;

  const startWorker = async () => {
    worker = await startWorkerProcess({ redis: redis.url, node: t.url, name: 'solo', cacheDir: join(work, 'cache-solo'), blender: blenderPath!, threads: 1 });
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-dist-requeue-'));
    redis = await startRedis(redisServer!);
    keys = new Redis(redis.url);
    scene = await readFile(await makeSampleScene(work, { frames: 4 }));
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 2, reconcileMs: 500 } });
    await startWorker();
  }, 180_000);

  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await t?.stop();
    keys?.disconnect();
    await redis?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('renders frames 2-3 of a completed job again in new chunks, pixel-identical, the other frames untouched', async () => {
    const id = await startRenderJob(t, 'sample.blend', scene, {});
    const first = await waitForJob(t, id, ended, 300_000);
    expect(first.status, JSON.stringify(first.failedReason)).toBe('completed');
    const before = new Map(await Promise.all(t.node.ctx.jobs.frames(id).map(async (f) => [f.frame, { st: await stat(f.filePath), pixels: decodePng(await readFile(f.filePath)).data }] as const)));

    const answer = await t.call('POST', `/node/jobs/${id}/requeue`, { frames: ['2-3'] });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.timeline.at(-1)).toMatchObject({ status: 'booting', detail: 'requeued frames 2-3' });
    const done = await waitForJob(t, id, ended, 300_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.progress).toEqual({ completedFrames: 4, totalFrames: 4 });

    const frames = await t.call('GET', `/node/jobs/${id}/frames`);
    expect(frames.json.frames.map((f: { frame: number; worker: string | null }) => [f.frame, f.worker])).toEqual([1, 2, 3, 4].map((f) => [f, 'solo']));
    for (const f of t.node.ctx.jobs.frames(id)) {
      const st = await stat(f.filePath);
      const was = before.get(f.frame)!;
      if (f.frame === 1 || f.frame === 4) expect(st.mtimeMs, `frame ${f.frame} untouched`).toBe(was.st.mtimeMs);
      else {
        expect(st.mtimeMs, `frame ${f.frame} written again`).toBeGreaterThan(was.st.mtimeMs);
        expect(decodePng(await readFile(f.filePath)).data.equals(was.pixels), `frame ${f.frame} pixel-identical`).toBe(true);
      }
    }
    const chunks = (t.node.ctx.db.prepare('SELECT idx, frames, generation FROM render_chunks WHERE job_id = ? ORDER BY idx').all(id) as { idx: number; frames: string; generation: number }[]).map((c) => ({ ...c, frames: JSON.parse(c.frames) as number[] }));
    expect(chunks.flatMap((c) => c.frames).sort()).toEqual([1, 2, 3, 4]);
    const kept = chunks.filter((c) => c.frames.some((f) => f === 1 || f === 4));
    const fresh = chunks.filter((c) => c.frames.some((f) => f === 2 || f === 3));
    expect(kept.every((c) => c.frames.every((f) => f === 1 || f === 4)), 'the requeued frames left their old chunks').toBe(true);
    expect(Math.min(...fresh.map((c) => c.idx)), 'the requeued frames are in new chunks').toBeGreaterThan(Math.max(...kept.map((c) => c.idx)));
    expect(fresh.every((c) => c.generation === 0)).toBe(true);
    const downloads = (await t.call('GET', `/jobs/${id}/downloads`)).json;
    expect(downloads.frameOutputs).toHaveLength(4);
    expect(downloads.transforms.framesZip).toBeTruthy();
  }, 600_000);

  it('renders the frames of a canceled job with failed: true once its canceled mark is gone', async () => {
    await stopWorker(worker!);
    worker = null;
    const id = await startRenderJob(t, 'sample.blend', scene, { frameRanges: ['1-2'] });
    expect((await t.call('POST', `/jobs/${id}/cancel`)).status).toBe(200);
    expect(await keys.exists(redisKeys.canceled(id))).toBe(1);
    await startWorker();

    const answer = await t.call('POST', `/node/jobs/${id}/requeue`, { failed: true });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(await keys.exists(redisKeys.canceled(id))).toBe(0);
    const done = await waitForJob(t, id, ended, 300_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.progress).toEqual({ completedFrames: 2, totalFrames: 2 });
    expect(done.timeline.map((e: { status: string }) => e.status)).toContain('canceled');
  }, 600_000);
});
