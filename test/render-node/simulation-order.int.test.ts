import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { requireBlender } from '../helpers/blender';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { decodePng, type Pixels } from '../helpers/png-pixels';
import { requireRedis, startRedis, type TestRedis } from '../helpers/redis';
import { startWorkerProcess, stopWorker, type WorkerProcess } from '../helpers/workers';
import { probeBlender } from '../../src/render-node/blender/probe';
import { ChunksRepo } from '../../src/render-node/distributed/chunks-repo';

const run = promisify(execFile);
const blenderPath = requireBlender();
const FRAMES = 24;
const redisServer = requireRedis();

/**
 * Frames of the scene rendered where it is by Blender the way its Render Animation does: in one session,
 * frame after frame from the first, so the simulation steps through each (`-a` from the command line
 * does not step an unbaked rigid body simulation in Blender 3.4), or only `only` when given (a jump
 * straight to it, as a farm rendering that frame first would).
 */
async function renderInSession(scenePath: string, outDir: string, only: number | null = null): Promise<void> {
  const frames = only === null ? `range(1, ${FRAMES + 1})` : `[${only}]`;
  const script = `import bpy\ns = bpy.context.scene\nfor f in ${frames}:\n    s.frame_set(f)\n    s.render.filepath = ${JSON.stringify(outDir)} + '/fall_%04d' % f\n    bpy.ops.render.render(write_still=True)\n`;
  await mkdir(outDir, { recursive: true });
  await run(blenderPath!, ['-b', scenePath, '--python-exit-code', '1', '--python-expr', script]);
}

async function framesIn(folder: string): Promise<Pixels[]> {
  const names = (await readdir(folder)).filter((n) => n.endsWith('.png')).sort();
  return Promise.all(names.map(async (n) => decodePng(await readFile(join(folder, n)))));
}

describe.skipIf(!blenderPath)('a scene that simulates without a bake renders in order, as in Blender (real Blender)', () => {
  let work: string;
  let node: TestNode;
  let scenePath: string;
  let inPlace: Pixels[];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-simulation-'));
    scenePath = join(work, 'fall.blend');
    await run(blenderPath!, ['-b', '-Y', '--factory-startup', '--python-exit-code', '1', '--python', join(import.meta.dirname, '..', 'fixtures', 'blender', 'make-rigid-body-scene.py'), '--', scenePath, String(FRAMES)]);
    await renderInSession(scenePath, join(work, 'inplace'));
    inPlace = await framesIn(join(work, 'inplace'));
    node = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
  }, 300_000);

  afterAll(async () => {
    await node?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('says so at validation, renders in frame order in one run by default, and every frame matches Blender rendering it in place', async () => {
    expect(inPlace).toHaveLength(FRAMES);
    // The simulation shows: the cube moves, and the last frame rendered first (no frames before it) is not the one Blender renders in order.
    expect(inPlace[FRAMES - 1]!.data.equals(inPlace[0]!.data)).toBe(false);
    await renderInSession(scenePath, join(work, 'alone'), FRAMES);
    const [alone] = await framesIn(join(work, 'alone'));
    expect(alone!.data.equals(inPlace[FRAMES - 1]!.data)).toBe(false);

    const id = await startRenderJob(node, 'fall.blend', await readFile(scenePath), {});
    const done = await waitForJob(node, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 300_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.analysis.simulations).toEqual(['rigid bodies']);
    expect(done.analysis.warnings.find((w: { code: string }) => w.code === 'farm-delivery')?.message).toMatch(/^Frames render one after the other from the first, in one Blender run: the scene simulates rigid bodies without a bake/);
    const plan = node.node.ctx.jobs.get(id)!.renderPlan!;
    expect(plan).toMatchObject({ frameOrder: 'sequential', oneRun: true });
    const frames = await framesIn(node.node.ctx.storage.framesDir(id));
    expect(frames).toHaveLength(FRAMES);
    for (const [i, frame] of frames.entries()) expect(frame.data.equals(inPlace[i]!.data), `frame ${i + 1} pixel-identical to Blender in place`).toBe(true);
  }, 400_000);

  it('asked for the spread order, still renders in order and says why', async () => {
    const id = await startRenderJob(node, 'fall.blend', await readFile(scenePath), { frameOrder: 'spread', frameRanges: [`1-${FRAMES}`] });
    const done = await waitForJob(node, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 300_000);
    expect(done.status).toBe('completed');
    expect(done.finalConfig.adjustments).toContainEqual(expect.objectContaining({ field: 'frameOrder', requested: 'spread', used: 'sequential' }));
    const frames = await framesIn(node.node.ctx.storage.framesDir(id));
    expect(frames[FRAMES - 1]!.data.equals(inPlace[FRAMES - 1]!.data)).toBe(true);
  }, 400_000);

  it('renders a frame again in the same job by stepping through the frames before it, so it still matches Blender in place', async () => {
    const id = await startRenderJob(node, 'fall.blend', await readFile(scenePath), {});
    await waitForJob(node, id, (j) => j.status === 'completed', 300_000);
    const requeued = await node.call('POST', `/node/jobs/${id}/requeue`, { frames: [String(FRAMES)] });
    expect(requeued.status, JSON.stringify(requeued.json)).toBe(200);
    const again = await waitForJob(node, id, (j) => j.status === 'completed' && j.timeline.filter((e: { status: string }) => e.status === 'completed').length === 2, 300_000);
    expect(again.status).toBe('completed');
    const frames = await framesIn(node.node.ctx.storage.framesDir(id));
    expect(frames[FRAMES - 1]!.data.equals(inPlace[FRAMES - 1]!.data), 'the frame rendered again is pixel-identical to Blender in place').toBe(true);
  }, 400_000);

  describe.skipIf(!redisServer)('on two render workers (BullMQ on a real Redis)', () => {
    let redis: TestRedis;
    let farm: TestNode;
    const workers: WorkerProcess[] = [];

    beforeAll(async () => {
      redis = await startRedis(redisServer!);
      farm = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }), distributed: { redis: { url: redis.url }, chunkSize: null, reconcileMs: 1000 } });
      for (const name of ['alpha', 'beta']) {
        workers.push(await startWorkerProcess({ redis: redis.url, node: farm.url, name, cacheDir: join(work, `cache-${name}`), blender: blenderPath!, threads: 1 }));
      }
    }, 120_000);
    afterAll(async () => {
      await Promise.allSettled(workers.map((w) => stopWorker(w)));
      await farm?.stop();
      await redis?.dispose();
    });

    it('renders in one chunk on one worker, and a frame rendered again steps through the frames before it: all as in Blender', async () => {
      const id = await startRenderJob(farm, 'fall.blend', await readFile(scenePath), {});
      const done = await waitForJob(farm, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 300_000);
      expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
      expect(new ChunksRepo(farm.node.ctx.db).list(id).map((c) => c.frames.length)).toEqual([FRAMES]);
      let frames = await framesIn(farm.node.ctx.storage.framesDir(id));
      for (const [i, frame] of frames.entries()) expect(frame.data.equals(inPlace[i]!.data), `frame ${i + 1} pixel-identical to Blender in place`).toBe(true);

      const requeued = await farm.call('POST', `/node/jobs/${id}/requeue`, { frames: [String(FRAMES)] });
      expect(requeued.status, JSON.stringify(requeued.json)).toBe(200);
      await waitForJob(farm, id, (j) => j.status === 'completed' && j.timeline.filter((e: { status: string }) => e.status === 'completed').length === 2, 300_000);
      frames = await framesIn(farm.node.ctx.storage.framesDir(id));
      expect(frames[FRAMES - 1]!.data.equals(inPlace[FRAMES - 1]!.data), 'the frame rendered again on a worker is pixel-identical to Blender in place').toBe(true);
    }, 600_000);
  });
});
