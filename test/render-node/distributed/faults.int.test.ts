import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { runCli, startServeProcess } from '../../helpers/cli';
import { startTestNode, waitForJob, type TestNode } from '../../helpers/node';
import { freePort, requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { blenderProcesses, completedChunks, startWorkerProcess, stopWorker, TEST_WORKER_SECRET, type WorkerProcess } from '../../helpers/workers';
import { probeBlender, type BlenderInfo } from '../../../src/render-node/blender/probe';

const blenderPath = requireBlender();
const redisServer = requireRedis();

/** Frames of about a second or two each with one thread, so a chunk of four can be interrupted mid-way. */
const SLOW = { resolutionPercentage: 400, sampleCount: 64 };

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }>;

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 240_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
}

async function submit(api: Api, put: (url: string, bytes: Buffer) => Promise<void>, scene: string, config: Record<string, unknown>): Promise<string> {
  const target = (await api('POST', '/uploads', { fileName: 'slow.blend', fileType: 'blend' })).json;
  await put(target.uploadUrl, await readFile(scene));
  const job = (await api('POST', '/jobs', { slug: target.slug })).json;
  await api('POST', `/jobs/${job.id}/validate`);
  await until(() => api('GET', `/jobs/${job.id}`), (r) => r.json.data.status !== 'validating', 'validation');
  const render = await api('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', ...config } });
  expect(render.status, JSON.stringify(render.json)).toBe(200);
  return job.id as string;
}

async function putFile(url: string, bytes: Buffer): Promise<void> {
  const res = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
  expect(res.status).toBe(200);
}

async function frameTimes(dir: string): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  for (const f of await readdir(dir).catch(() => [])) if (f.endsWith('.png')) times.set(f, (await stat(join(dir, f))).mtimeMs);
  return times;
}

describe.skipIf(!blenderPath || !redisServer)('distributed render node under faults', () => {
  let redis: TestRedis;
  let work: string;
  let blender: BlenderInfo;
  let scene: string;
  const workers = new Map<string, WorkerProcess>();
  /** The node the workers render for (each worker is given its address). */
  let nodeUrl = '';

  const startWorker = async (name: string) => {
    const worker = await startWorkerProcess({ redis: redis.url, node: nodeUrl, name, cacheDir: join(work, `cache-${name}`), blender: blenderPath!, threads: 1 });
    workers.set(name, worker);
    return worker;
  };
  const stopWorkers = async () => {
    await Promise.allSettled([...workers.values()].map((w) => stopWorker(w)));
    workers.clear();
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-faults-'));
    redis = await startRedis(redisServer!);
    blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    scene = await makeSampleScene(work, { frames: 8 });
  });

  afterAll(async () => {
    await stopWorkers();
    await redis?.dispose();
  });

  describe('with the node in this process', () => {
    let t: TestNode;
    const api: Api = (method, path, body) => t.call(method, path, body);
    beforeAll(async () => {
      t = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 4, reconcileMs: 1000 } });
      nodeUrl = t.url;
      await Promise.all([startWorker('alpha'), startWorker('beta')]);
    });
    afterAll(async () => {
      await stopWorkers();
      await t?.stop();
    });

    it('a worker killed with SIGKILL mid-chunk costs only its unfinished frames; restarted, it stops the Blender it left', async () => {
      const id = await submit(api, putFile, scene, SLOW);
      const alpha = workers.get('alpha')!;
      const busy = await until(
        async () => (await api('GET', '/node/workers')).json.workers.find((w: any) => w.name === 'alpha'),
        (w) => w?.framesRendered >= 1 && w.state === 'rendering' && w.current.jobId === id && w.current.frame !== w.current.frames.at(-1),
        'alpha to deliver a frame mid-chunk',
      );
      const orphans = await blenderProcesses(alpha.cacheDir);
      expect(orphans.length).toBeGreaterThan(0);
      alpha.child.kill('SIGKILL');
      await alpha.exited;
      const framesDir = join(t.dataDir, 'jobs', id, 'frames');
      const before = await frameTimes(framesDir);
      const deliveredByAlpha = busy.current.frames.filter((f: number) => before.has(`sample_000${f}.png`));
      expect(deliveredByAlpha.length).toBeGreaterThanOrEqual(1);

      await startWorker('alpha');
      for (const pid of orphans) expect((await blenderProcesses(alpha.cacheDir)).includes(pid), `Blender ${pid} of the killed worker still runs`).toBe(false);

      const done = await waitForJob(t, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 300_000);
      expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
      expect(done.progress).toEqual({ completedFrames: 8, totalFrames: 8 });
      const after = await frameTimes(framesDir);
      expect([...after.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((f) => `sample_000${f}.png`));
      for (const [name, mtime] of before) expect(after.get(name), `${name} was rendered again`).toBe(mtime);

      const retried = (await completedChunks(redis.url, id)).find((j) => j.data.frames.includes(busy.current.frames[0]));
      expect(retried?.returnvalue.skipped).toBeGreaterThanOrEqual(deliveredByAlpha.length);
      expect(retried?.returnvalue.rendered).toBe(4 - retried?.returnvalue.skipped);
    });

    it('a worker stopped politely mid-chunk (SIGTERM) puts its chunk back at once; the frames it delivered stay', async () => {
      const id = await submit(api, putFile, scene, SLOW);
      const beta = workers.get('beta')!;
      const busy = await until(
        async () => (await api('GET', '/node/workers')).json.workers.find((w: any) => w.name === 'beta'),
        (w) => w?.state === 'rendering' && w.current.jobId === id && w.current.frame !== null && w.current.frame !== w.current.frames[0] && w.current.frame !== w.current.frames.at(-1),
        'beta to be mid-chunk',
      );
      const stoppedAt = Date.now();
      beta.child.kill('SIGTERM');
      expect(await beta.exited).toBe(0);
      expect(Date.now() - stoppedAt, 'a polite stop takes seconds, not a lock time-out').toBeLessThan(10_000);
      const done = await waitForJob(t, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 300_000);
      expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
      expect(done.progress).toEqual({ completedFrames: 8, totalFrames: 8 });
      const chunk = (await completedChunks(redis.url, id)).find((j) => j.data.frames.includes(busy.current.frames[0]));
      expect(chunk?.returnvalue.worker).toBe('alpha');
      expect(chunk?.returnvalue.skipped).toBeGreaterThanOrEqual(1);
      await startWorker('beta');
    });

    it('a Redis restart mid-job (its data lost) loses no frame and leaves no job stuck', async () => {
      const longer = await makeSampleScene(join(work, 'twelve'), { frames: 12 });
      const id = await submit(api, putFile, longer, SLOW);
      await waitForJob(t, id, (j) => j.progress.completedFrames >= 2);
      await redis.restart();
      const done = await waitForJob(t, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 300_000);
      expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
      expect(done.progress).toEqual({ completedFrames: 12, totalFrames: 12 });
      const files = (await readdir(join(t.dataDir, 'jobs', id, 'frames'))).filter((f) => f.endsWith('.png'));
      expect(files).toHaveLength(12);
      const listed = await until(async () => (await api('GET', '/node/workers')).json, (v) => v.workers?.length === 2, 'both workers to report again after the restart', 30_000);
      expect(listed.workers.map((w: any) => w.name).sort()).toEqual(['alpha', 'beta']);
    });
  });

  it('a node killed with SIGKILL mid-job finishes on restart: every frame once, none rendered again', async () => {
    const data = join(work, 'node-data');
    const created = await runCli(['node', 'keys', 'create', '--data', data, '--name', 'faults']);
    expect(created.code).toBe(0);
    const key = created.stdout.trim().split('\n').pop()!;
    const port = await freePort();
    const args = ['--port', String(port), '--data', data, '--blender', blenderPath!, '--redis', redis.url, '--chunk-size', '4'];
    const secret = { RENDERDROP_WORKER_SECRET: TEST_WORKER_SECRET };
    let node = await startServeProcess(args, secret);
    nodeUrl = `http://127.0.0.1:${port}`;
    await Promise.all([startWorker('alpha'), startWorker('beta')]);
    const api: Api = async (method, path, body) => {
      const res = await fetch(`${node.url}/api/external/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: await res.json() };
    };
    try {
      const id = await submit(api, putFile, scene, SLOW);
      await until(() => api('GET', `/jobs/${id}/progress`), (r) => r.json.completedFrames >= 2, 'two frames');
      node.child.kill('SIGKILL');
      await new Promise((r) => node.child.once('exit', r));
      const framesDir = join(data, 'jobs', id, 'frames');
      const before = await frameTimes(framesDir);
      await new Promise((r) => setTimeout(r, 3000));

      node = await startServeProcess(args, secret);
      const done = await until(() => api('GET', `/jobs/${id}`), (r) => ['completed', 'failed', 'canceled'].includes(r.json.data.status), 'the job to end', 300_000);
      expect(done.json.data.status, JSON.stringify(done.json.data.failedReason)).toBe('completed');
      expect((await api('GET', `/jobs/${id}/progress`)).json).toEqual({ jobId: id, completedFrames: 8, totalFrames: 8 });
      const after = await frameTimes(framesDir);
      expect(after.size).toBe(8);
      for (const [name, mtime] of before) expect(after.get(name), `${name} was rendered again`).toBe(mtime);
    } finally {
      node.child.kill('SIGTERM');
      await new Promise((r) => node.child.once('exit', r));
    }
  });

  it('Redis unreachable at start: the node and a worker say so in one line and exit 1', async () => {
    const closed = `redis://127.0.0.1:${await freePort()}`;
    const serve = await runCli(['node', 'serve', '--port', '0', '--data', join(work, 'unused'), '--redis', closed], { env: { RENDERDROP_WORKER_SECRET: TEST_WORKER_SECRET } });
    expect(serve.code).toBe(1);
    expect(serve.stderr.trim().split('\n')).toEqual([`renderdrop: Redis at ${closed} is unreachable (connection refused): start it, or check its address and password.`]);
    const worker = await runCli(['node', 'worker', '--redis', closed, '--node', 'http://127.0.0.1:8787', '--cache', join(work, 'unused-cache')], { env: { RENDERDROP_WORKER_SECRET: TEST_WORKER_SECRET } });
    expect(worker.code).toBe(1);
    expect(worker.stderr.trim().split('\n')).toEqual([`renderdrop: Redis at ${closed} is unreachable (connection refused): start it, or check its address and password.`]);
  });
});
