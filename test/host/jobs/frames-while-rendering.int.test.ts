import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';
import type { AppEvent } from '../../../src/shared/contract/events';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { decodePng } from '../../helpers/png-pixels';
import { freePort, requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { startWorkerProcess, stopWorker, TEST_WORKER_SECRET, type WorkerProcess } from '../../helpers/workers';
import { startHost, type HostHarness } from '../host-harness';

const blenderPath = requireBlender();
const redisServer = requireRedis();
const FRAMES = 10;

const pngOf = (dataUrl: string) => decodePng(Buffer.from(dataUrl.split(',')[1]!, 'base64'));

/**
 * Submit a slow scene, wait until the job has written `atLeast` frames, then check what the app says
 * of it while it still renders: those frames done with previews, the rest pending, a tile of each
 * done frame and the row's thumbnail. Cancels the job at the end.
 */
async function checkWhileRendering(h: HostHarness, work: string, atLeast: number): Promise<void> {
  const scene = await makeSampleScene(work, { frames: FRAMES, missingTexture: false, everySample: true, name: 'while-rendering.blend' });
  const [submitted] = await h.value('submissions.submit', { files: [{ path: scene }], renderConfig: { colorManagementPreset: 'default', sampleCount: 1024, outputFormat: 'PNG' } });
  if (!submitted?.ok) throw new Error(JSON.stringify(submitted));
  const rendering = await h.waitFor(
    (e): e is Extract<AppEvent, { name: 'job.updated' }> => e.name === 'job.updated' && e.payload.status === 'rendering' && e.payload.completedFrames >= atLeast,
    240_000,
  );
  const jobId = rendering.payload.id;
  const strip = await h.value('jobs.frames', { jobId });
  expect(strip.status, 'the job still renders when its frames are listed').toBe('rendering');
  const done = strip.frames.filter((f) => f.state === 'done');
  expect(done.length).toBeGreaterThanOrEqual(atLeast);
  expect(done.length).toBeLessThan(FRAMES);
  expect(strip.frames.map((f) => f.frame)).toEqual(Array.from({ length: FRAMES }, (_, i) => i + 1));
  expect(strip.frames.filter((f) => f.state !== 'done').every((f) => f.state === 'pending')).toBe(true);
  for (const f of done) {
    expect(f.fileName).toBe(`sample_${String(f.frame).padStart(4, '0')}.png`);
    expect(f.hasPreview, `frame ${f.frame} has a preview`).toBe(true);
    const tile = await h.value('jobs.frameImage', { jobId, frame: f.frame, thumbnail: true });
    if (!tile.ok) throw new Error(`no tile of frame ${f.frame}: ${tile.reason}`);
    expect(tile.preview, 'the node\'s preview, unless the automatic download already brought the frame in').toBe(!f.onDisk);
    const pixels = pngOf(tile.dataUrl);
    expect([pixels.width, pixels.height]).toEqual([64, 36]);
    expect(pixels.data.some((b) => b > 0)).toBe(true);
  }
  const full = await h.value('jobs.frameImage', { jobId, frame: done[0]!.frame });
  expect(full.ok && !full.preview && pngOf(full.dataUrl).width).toBe(64);
  const thumbnail = await h.value('jobs.preview', { jobId });
  expect(thumbnail).toMatch(/^data:image\/png;base64,/);
  await h.value('jobs.cancel', { jobId });
}

describe.skipIf(!blenderPath)('host: the frames of a job while it renders on this computer (embedded node, real Blender)', () => {
  let blender: BlenderInfo;
  let h: HostHarness;
  let work: string;

  beforeAll(async () => {
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    work = await mkdtemp(join(tmpdir(), 'rd-host-live-frames-'));
    h = await startHost({ blender, localNodePort: 0 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lists each frame as done, with its preview, as soon as it is written', { timeout: 300_000 }, async () => {
    await checkWhileRendering(h, work, 2);
  });
});

describe.skipIf(!blenderPath || !redisServer)('host: the frames of a job while two render workers render it (Redis)', () => {
  let h: HostHarness;
  let redis: TestRedis;
  let work: string;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    work = await mkdtemp(join(tmpdir(), 'rd-host-worker-frames-'));
    redis = await startRedis(redisServer!);
    const port = await freePort();
    h = await startHost({ blender, localNodePort: port, env: { RENDERDROP_REDIS_URL: redis.url, RENDERDROP_WORKER_SECRET: TEST_WORKER_SECRET } });
    await h.host.ready();
    for (const name of ['live-01', 'live-02']) {
      workers.push(await startWorkerProcess({ redis: redis.url, node: `http://127.0.0.1:${port}`, name, cacheDir: join(work, name), blender: blenderPath!, threads: 1 }));
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.allSettled(workers.map((w) => stopWorker(w)));
    await h?.close();
    await redis?.dispose();
  });

  it('lists each frame a worker delivered as done, with the preview the worker sent, before the job completes', { timeout: 300_000 }, async () => {
    await checkWhileRendering(h, work, 2);
  });
});
