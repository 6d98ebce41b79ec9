import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { startRenderJob, startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import { decodePng } from '../helpers/png-pixels';
import { requireRedis, startRedis, type TestRedis } from '../helpers/redis';
import { startWorkerProcess, stopWorker, type WorkerProcess } from '../helpers/workers';
import { probeBlender, type BlenderInfo } from '../../src/render-node/blender/probe';
import { ChunksRepo } from '../../src/render-node/distributed/chunks-repo';
import { estimateWithModel, renderTargetFrom, sceneFrames, spreadOrder } from '../../src/shared/render';

const blenderPath = requireBlender();
const redisServer = requireRedis();
const FRAMES = 9;
const ended = (j: { status: string }) => ['completed', 'failed', 'canceled'].includes(j.status);

/** A completed job's frames: the order the node counted them in, and each file's name and pixels by frame. */
async function rendered(t: TestNode, id: string): Promise<{ order: number[]; files: Map<number, { name: string; pixels: Buffer }> }> {
  const done = await waitForJob(t, id, ended, 300_000);
  expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
  const files = new Map<number, { name: string; pixels: Buffer }>();
  for (const f of t.node.ctx.jobs.frames(id)) files.set(f.frame, { name: basename(f.filePath), pixels: decodePng(await readFile(f.filePath)).data });
  return { order: t.node.ctx.jobs.frames(id, 'written').map((f) => f.frame), files };
}

/** Every frame of the shot once, under its own name, pixel-identical to the in-order render. */
function expectSameAsInOrder(got: Awaited<ReturnType<typeof rendered>>, inOrder: Awaited<ReturnType<typeof rendered>>): void {
  expect([...got.order].sort((a, b) => a - b)).toEqual(sceneFrames(1, FRAMES, 1));
  expect([...got.files.keys()]).toEqual(sceneFrames(1, FRAMES, 1));
  for (const [frame, file] of got.files) {
    expect(file.name).toBe(inOrder.files.get(frame)!.name);
    expect(file.pixels.equals(inOrder.files.get(frame)!.pixels), `frame ${frame} is pixel-identical to the in-order render`).toBe(true);
  }
}

describe.skipIf(!blenderPath)('frame order with real Blender', () => {
  let work: string;
  let scene: Buffer;
  let blender: BlenderInfo;
  let embedded: TestNode;
  let inOrder: Awaited<ReturnType<typeof rendered>>;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-frame-order-'));
    scene = await readFile(await makeSampleScene(work, { frames: FRAMES }));
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    embedded = await startTestNode({ blender });
  }, 120_000);
  afterAll(async () => {
    await embedded?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('in order when asked (sequential): the node writes frames 1, 2, 3 … as before', async () => {
    const id = await startRenderJob(embedded, 'sample.blend', scene, { frameOrder: 'sequential' });
    inOrder = await rendered(embedded, id);
    expect(inOrder.order).toEqual(sceneFrames(1, FRAMES, 1));
    expect(embedded.node.ctx.jobs.get(id)!.renderPlan).toMatchObject({ frameOrder: 'sequential', frames: sceneFrames(1, FRAMES, 1) });
  }, 400_000);

  it('by default across the shot first on the node\'s own Blender: first, last, middle, then the gaps; every frame once, pixel-identical', async () => {
    const id = await startRenderJob(embedded, 'sample.blend', scene, {});
    const spread = await rendered(embedded, id);
    expect(spread.order).toEqual([1, 9, 5, 3, 7, 2, 4, 6, 8]);
    expect(spread.order).toEqual(spreadOrder(sceneFrames(1, FRAMES, 1)));
    expect(embedded.node.ctx.jobs.get(id)!.renderPlan).toMatchObject({ frameOrder: 'spread', frames: sceneFrames(1, FRAMES, 1) });
    expectSameAsInOrder(spread, inOrder);
    const downloads = (await embedded.call('GET', `/jobs/${id}/downloads`)).json;
    expect(downloads.frameOutputs.map((o: { fileName: string }) => o.fileName)).toEqual([...inOrder.files.values()].map((f) => f.name));
  }, 400_000);

  describe.skipIf(!redisServer)('on two render workers (BullMQ on a real Redis)', () => {
    let redis: TestRedis;
    let node: TestNode;
    const workers: WorkerProcess[] = [];

    beforeAll(async () => {
      redis = await startRedis(redisServer!);
      node = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: null, reconcileMs: 1000 } });
      for (const name of ['alpha', 'beta']) {
        workers.push(await startWorkerProcess({ redis: redis.url, node: node.url, name, cacheDir: join(work, `cache-${name}`), blender: blenderPath!, threads: 1 }));
      }
    }, 120_000);
    afterAll(async () => {
      await Promise.allSettled(workers.map((w) => stopWorker(w)));
      await node?.stop();
      await redis?.dispose();
    });

    it('cuts the chunks from the spread order so the two taken first cover the shot together, each rendered in its order, every frame once, pixel-identical', async () => {
      const id = await startRenderJob(node, 'sample.blend', scene, {});
      const spread = await rendered(node, id);
      const chunks = new ChunksRepo(node.node.ctx.db).list(id);
      // Two workers, chunks of 5 frames dealt the spread order in turn: side by side they render 1 and 9,
      // then 5 and 3, then 7 and 2 ...
      expect(chunks.map((c) => c.frames)).toEqual([
        [1, 5, 7, 4, 8],
        [9, 3, 2, 6],
      ]);
      for (const chunk of chunks) expect(spread.order.filter((f) => chunk.frames.includes(f)), `chunk ${chunk.index} in its order`).toEqual(chunk.frames);
      expectSameAsInOrder(spread, inOrder);
    }, 400_000);

    it("estimates the render before Start for the two workers sharing its frames", async () => {
      const slug = await uploadBytes(node, 'sample.blend', scene);
      const job = (await node.call('POST', '/jobs', { slug })).json;
      await node.call('POST', `/jobs/${job.id}/validate`);
      const sampled = await waitForJob(node, job.id, (j) => j.estimate?.basis === 'sample' || ['failed', 'canceled'].includes(j.status), 180_000);
      expect(sampled.estimate?.model?.parallel, JSON.stringify(sampled.estimate)).toBe(2);
      const target = renderTargetFrom({}, sampled.analysis)!;
      const alone = estimateWithModel({ ...sampled.estimate.model, parallel: 1 }, target)!;
      expect(estimateWithModel(sampled.estimate.model, target)!.seconds).toBe(sampled.estimate.seconds);
      expect(sampled.estimate.seconds).toBeLessThan(alone.seconds);
      await node.call('POST', `/jobs/${job.id}/cancel`, {});
    }, 300_000);

    it('in order when asked: chunks of consecutive frames, as before', async () => {
      const id = await startRenderJob(node, 'sample.blend', scene, { frameOrder: 'sequential' });
      const sequential = await rendered(node, id);
      expect(new ChunksRepo(node.node.ctx.db).list(id).map((c) => c.frames)).toEqual([
        [1, 2, 3, 4, 5],
        [6, 7, 8, 9],
      ]);
      expectSameAsInOrder(sequential, inOrder);
    }, 400_000);
  });
});
