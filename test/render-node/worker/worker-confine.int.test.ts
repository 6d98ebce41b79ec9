import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBlender } from '../../helpers/blender';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../../helpers/node';
import { makeOutsideScene } from '../../helpers/pack-corpus';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { requireStrace } from '../../helpers/strace';
import { completedChunks, startWorkerProcess, stopWorker, type WorkerProcess } from '../../helpers/workers';
import { zipBytes } from '../../helpers/zip-bytes';
import { probeBlender } from '../../../src/render-node/blender/probe';
import { newWorkerSecret } from '../../../src/render-node/worker-access/worker-secret';

const blenderPath = requireBlender();
const redisServer = requireRedis();
const strace = requireStrace();

/**
 * A stand-in for Blender that runs the real one under strace, one log per run (the worker runs
 * Blender to probe it, then once per chunk), logging every file system call of it and its children.
 */
async function tracedBlender(dir: string): Promise<{ path: string; touched: () => Promise<string> }> {
  const logs = join(dir, 'strace');
  await mkdir(logs, { recursive: true });
  const path = join(dir, 'traced-blender.sh');
  await writeFile(path, `#!/bin/sh\nexec '${strace}' -f -qq -e trace=%file -o '${logs}/run.'$$ '${blenderPath}' "$@"\n`);
  await chmod(path, 0o755);
  const touched = async () => (await Promise.all((await readdir(logs)).map((name) => readFile(join(logs, name), 'utf8')))).join('\n');
  return { path, touched };
}

/** A TrueType font of this system (Debian's blender depends on fonts-dejavu). */
async function anyFont(): Promise<string> {
  const preferred = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
  if (existsSync(preferred)) return preferred;
  const found = (await readdir('/usr/share/fonts', { recursive: true }).catch(() => [] as string[])).find((name) => String(name).endsWith('.ttf'));
  if (!found) throw new Error('This test needs a .ttf font under /usr/share/fonts (Debian: apt install fonts-dejavu-core).');
  return join('/usr/share/fonts', String(found));
}

describe.skipIf(!blenderPath || !redisServer || !strace)('a worker severs outside paths before its Blender opens the scene', () => {
  let work: string;
  let redis: TestRedis;
  let t: TestNode;
  let worker: WorkerProcess;
  let traced: Awaited<ReturnType<typeof tracedBlender>>;
  let outside: { library: string; font: string };
  let sceneBytes: Buffer;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-worker-confine-'));
    const scenePath = join(work, 'artist', 'scene.blend');
    outside = await makeOutsideScene(blenderPath!, scenePath, join(work, 'elsewhere'), await anyFont());
    sceneBytes = await readFile(scenePath);
    redis = await startRedis(redisServer!);
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    const workerSecret = newWorkerSecret();
    t = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 1, reconcileMs: 1000, workerSecret } });
    traced = await tracedBlender(work);
    const env = { RENDERDROP_WORKER_SECRET: workerSecret, RENDERDROP_NODE_URL: t.url };
    worker = await startWorkerProcess({ redis: redis.url, node: t.url, name: 'traced', cacheDir: join(work, 'cache'), blender: traced.path, threads: 1, env });
  }, 240_000);

  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await t?.stop();
    await redis?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it.each([
    ['a bare .blend', 'scene.blend', () => sceneBytes],
    ['a zip', 'bundle.zip', () => zipBytes([{ name: 'shots/scene.blend', data: sceneBytes }])],
  ])('%s with an absolute library and font elsewhere on disk: the worker renders it and never opens them', async (_label, fileName, bytes) => {
    const slug = await uploadBytes(t, fileName, bytes());
    const job = (await t.call('POST', '/jobs', { slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`);
    const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating' && j.status !== 'created');
    expect(validated.status, JSON.stringify(validated.failedReason)).toBe('validated');
    await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['1'], sampleCount: 1, resolutionPercentage: 25 } });
    const done = await waitForJob(t, job.id, (j) => ['completed', 'failed', 'canceled'].includes(j.status), 200_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect((await completedChunks(redis.url, job.id)).map((c) => c.returnvalue.worker)).toEqual(['traced']);

    const log = await traced.touched();
    expect(log).not.toContain(outside.library);
    expect(log).not.toContain(outside.font);
    expect(log).not.toContain(join(work, 'elsewhere'));
    expect(log, 'the worker\'s Blender opened the severed scene under strace').toContain('.renderdrop-not-uploaded');
  }, 240_000);
});
