import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../../helpers/node';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { blenderProcesses, completedChunks, startWorkerProcess, stopWorker, TEST_WORKER_SECRET, type WorkerProcess } from '../../helpers/workers';
import { signWorkerRequest } from '../../../src/render-node/distributed/request-signature';
import { workerKeys } from '../../../src/render-node/worker-access/worker-secret';
import { decodePng } from '../../helpers/png-pixels';
import { probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';

const blenderPath = requireBlender();
const redisServer = requireRedis();

async function submit(t: TestNode, scene: string, config: Record<string, unknown>): Promise<string> {
  const slug = await uploadBytes(t, 'sample.blend', await readFile(scene));
  const job = (await t.call('POST', '/jobs', { slug })).json;
  await t.call('POST', `/jobs/${job.id}/validate`);
  const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
  expect(validated.status, JSON.stringify(validated.failedReason)).toBe('validated');
  const render = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', ...config } });
  expect(render.status, JSON.stringify(render.json)).toBe(200);
  return job.id as string;
}

function bareRender(blender: string, scene: string, outDir: string, frames: [number, number]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(blender, ['-b', '-Y', '--factory-startup', scene, '-o', join(outDir, 'bare_####'), '-F', 'PNG', '-s', String(frames[0]), '-e', String(frames[1]), '-a'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bare blender exited ${code}`))));
  });
}

describe.skipIf(!blenderPath || !redisServer)('distributed render node (BullMQ on a real Redis, worker processes)', () => {
  let redis: TestRedis;
  let work: string;
  let blender: BlenderInfo;
  let t: TestNode;
  const workers: WorkerProcess[] = [];
  let firstJob = '';

  const startWorker = async (name: string) => {
    const worker = await startWorkerProcess({ redis: redis.url, node: t.url, name, cacheDir: join(work, `cache-${name}`), blender: blenderPath!, threads: 1 });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-dist-'));
    redis = await startRedis(redisServer!);
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 2, reconcileMs: 1000 } });
    await Promise.all([startWorker('alpha'), startWorker('beta')]);
  });

  afterAll(async () => {
    await Promise.allSettled(workers.map((w) => stopWorker(w)));
    await t?.stop();
    await redis?.dispose();
  });

  it('renders a multi-chunk job on two workers at once, frames identical to a bare blender -b render', async () => {
    const scene = await makeSampleScene(work, { frames: 6 });
    const listed = (await t.call('GET', '/node/workers')).json;
    expect(listed.mode).toBe('distributed');
    expect(listed.workers.map((w: any) => w.name).sort()).toEqual(['alpha', 'beta']);
    expect(listed.workers[0]).toMatchObject({ blenderVersion: blender.version, threads: 1, state: 'idle' });

    const id = await submit(t, scene, {});
    firstJob = id;
    const done = await waitForJob(t, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 300_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.progress).toEqual({ completedFrames: 6, totalFrames: 6 });
    expect(done.timeline.map((e: any) => e.status)).toEqual(['created', 'validating', 'validated', 'booting', 'rendering', 'finalizing', 'completed']);

    const downloads = (await t.call('GET', `/jobs/${id}/downloads`)).json;
    expect(downloads.frameOutputs.map((o: any) => o.fileName)).toEqual([1, 2, 3, 4, 5, 6].map((f) => `sample_000${f}.png`));
    // Each worker sent the preview of each frame with it: the app's grid and the job's thumbnail show them.
    for (const output of downloads.frameOutputs) {
      expect(new URL(output.previewUrl).pathname).toBe(`/storage/jobs/${id}/previews/${output.fileName}`);
      const preview = decodePng(Buffer.from(await (await fetch(output.previewUrl)).arrayBuffer()));
      expect([preview.width, preview.height]).toEqual([64, 36]);
    }
    expect(new URL(done.previewUrl).pathname).toBe(`/storage/jobs/${id}/package/preview.png`);

    const chunks = (await completedChunks(redis.url, id)).map((j) => j.returnvalue);
    expect(chunks).toHaveLength(3);
    expect(new Set(chunks.map((c) => c.worker))).toEqual(new Set(['alpha', 'beta']));
    const spans = chunks.map((c) => [c.timings.blenderStartedAt, c.timings.blenderEndedAt] as const);
    const overlap = spans.some(([a0, a1], i) => spans.some(([b0, b1], j) => i !== j && a0 < b1 && b0 < a1));
    expect(overlap, 'two chunks rendered at the same time').toBe(true);

    const bare = join(work, 'bare');
    await bareRender(blenderPath!, scene, bare, [1, 6]);
    for (let f = 1; f <= 6; f++) {
      const ours = decodePng(await readFile(join(t.dataDir, 'jobs', id, 'frames', `sample_000${f}.png`)));
      const reference = decodePng(await readFile(join(bare, `bare_000${f}.png`)));
      expect([ours.width, ours.height]).toEqual([reference.width, reference.height]);
      expect(Buffer.compare(ours.data, reference.data), `frame ${f} differs from bare Blender`).toBe(0);
    }
  });

  it('cancel stops Blender on every worker within seconds and keeps the frames already delivered', async () => {
    const scene = await makeSampleScene(join(work, 'slow'), { frames: 8 });
    const id = await submit(t, scene, { resolutionPercentage: 400, sampleCount: 64 });
    await waitForJob(t, id, (j) => j.progress.completedFrames >= 1);
    const busy = async () => (await t.call('GET', '/node/workers')).json.workers.filter((w: any) => w.current?.jobId === id).length;
    const deadline = Date.now() + 60_000;
    while ((await busy()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await busy(), 'both workers on the job').toBe(2);
    for (const w of workers) expect((await blenderProcesses(w.cacheDir)).length, `${w.name} renders`).toBeGreaterThan(0);

    const res = await t.call('POST', `/jobs/${id}/cancel`);
    expect(res.json.status).toBe('canceled');
    const canceledAt = Date.now();
    let left = Infinity;
    while (Date.now() - canceledAt < 10_000) {
      left = (await Promise.all(workers.map((w) => blenderProcesses(w.cacheDir)))).flat().length;
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(left, 'Blender processes left on the workers 10 s after cancel').toBe(0);

    const view = (await t.call('GET', '/node/workers')).json;
    expect(view.chunks).toMatchObject({ waiting: 0, delayed: 0 });
    const job = (await t.call('GET', `/jobs/${id}`)).json.data;
    expect(job.status).toBe('canceled');
    const downloads = (await t.call('GET', `/jobs/${id}/downloads`)).json;
    expect(downloads.frameOutputs.length).toBe(job.progress.completedFrames);
    expect(downloads.frameOutputs.length).toBeGreaterThanOrEqual(1);
  });

  it('takes a worker\'s files only with the chunk\'s signature and the worker\'s, for the chunk\'s frames, under their names, while the job renders', async () => {
    expect(firstJob).not.toBe('');
    const chunk = (await completedChunks(redis.url, firstJob)).find((j) => j.data.index === 1)!.data;
    // Chunks are cut from the spread order 1, 6, 3, 2, 4, 5, the two workers' first chunks sharing its
    // first four frames in turn: the second chunk holds frames 6 and 2.
    expect(chunk.frames).toEqual([6, 2]);
    const keys = workerKeys(TEST_WORKER_SECRET);
    const path = (rest: string, query: string) => `/storage/render/${firstJob}/chunks/${rest}?${query}`;
    const signed = (method: string, p: string) => signWorkerRequest(keys, method, p);
    const put = (rest: string, query: string, body = Buffer.from('not really a png'), sign = true) =>
      fetch(`${t.url}${path(rest, query)}`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...(sign ? signed('PUT', path(rest, query)) : {}) }, body });
    const code = async (res: Response) => ({ status: res.status, code: ((await res.json()) as any).error?.code });

    expect(await code(await put('1/frames/2/sample_0002.png', chunk.put, undefined, false))).toEqual({ status: 403, code: 'worker_signature_missing' });
    expect(await code(await put('1/frames/2/sample_0002.png', chunk.get))).toEqual({ status: 403, code: 'signature_invalid' });
    expect(await code(await put('0/frames/1/sample_0001.png', chunk.put))).toEqual({ status: 403, code: 'signature_invalid' });
    const tampered = chunk.put.replace(/sig=(.)/, (_: string, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`);
    expect(await code(await put('1/frames/2/sample_0002.png', tampered))).toEqual({ status: 403, code: 'signature_invalid' });
    expect(await code(await put('1/frames/5/sample_0005.png', chunk.put))).toEqual({ status: 403, code: 'frame_not_in_chunk' });
    expect(await code(await put('1/frames/2/sample_0004.png', chunk.put))).toEqual({ status: 400, code: 'unexpected_name' });
    expect(await code(await put('1/frames/2/..%2Fsample_0002.png', chunk.put))).toEqual({ status: 400, code: 'unexpected_name' });
    expect(await code(await put('1/composite/..%2F..%2Fpackage/x.png', chunk.put))).toEqual({ status: 400, code: 'unexpected_name' });
    expect(await code(await put('1/frames/2/sample_0002.png', chunk.put))).toEqual({ status: 409, code: 'job_not_rendering' });

    const get = (rest: string, query: string) => fetch(`${t.url}${path(rest, query)}`, { headers: signed('GET', path(rest, query)) });
    expect(await (await get('1/status', chunk.get)).json()).toEqual({ active: false, have: [6, 2] });
    expect((await get('1/status', chunk.put)).status).toBe(403);
    expect((await fetch(`${t.url}${path('1/scene', chunk.get)}`)).status, 'the scene without the worker signature').toBe(403);
    const scene = await get('1/scene', chunk.get);
    expect(scene.status).toBe(200);
    expect(Number(scene.headers.get('content-length'))).toBe(chunk.scene.size);
    const frame3 = await readFile(join(t.dataDir, 'jobs', firstJob, 'frames', 'sample_0003.png'));
    expect(decodePng(frame3).width).toBe(64);
  });
});
