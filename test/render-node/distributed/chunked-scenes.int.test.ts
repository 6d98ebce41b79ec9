import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api';
import { uploadChunked } from '../../../src/core/upload';
import { probeBlender } from '../../../src/render-node/blender/probe';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startTestNode, waitForJob, type TestNode } from '../../helpers/node';
import { decodePng } from '../../helpers/png-pixels';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { completedChunks, startWorkerProcess, stopWorker, type WorkerProcess } from '../../helpers/workers';
import { zipBytes } from '../../helpers/zip-bytes';

const blenderPath = requireBlender();
const redisServer = requireRedis();
const ended = (j: { status: string }) => ['completed', 'failed', 'canceled'].includes(j.status);

function seeded(size: number, seed: string): Buffer {
  const out = Buffer.alloc(size);
  for (let at = 0, n = 0; at < size; n++) at += createHash('sha256').update(`${seed}:${n}`).digest().copy(out, at);
  return out;
}

describe.skipIf(!blenderPath || !redisServer)('scenes sent in chunks, rendered on a real worker that fetches them in chunks (real Redis, real Blender)', () => {
  let redis: TestRedis;
  let work: string;
  let blend: Buffer;
  let t: TestNode;
  let worker: WorkerProcess | null = null;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-dist-chunked-'));
    redis = await startRedis(redisServer!);
    blend = await readFile(await makeSampleScene(work, { frames: 2 }));
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 2, reconcileMs: 500 } });
    worker = await startWorkerProcess({ redis: redis.url, node: t.url, name: 'solo', cacheDir: join(work, 'cache'), blender: blenderPath!, threads: 1 });
  }, 180_000);

  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await t?.stop();
    await redis?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Sends the bundle in chunks, renders it on the worker, and answers the job and what the worker fetched of its scene. */
  async function render(bundle: Buffer, name: string) {
    const path = join(work, name);
    await writeFile(path, bundle);
    const sent = await uploadChunked({ api: new ApiClient({ baseUrl: t.url, apiKey: t.key }), filePath: path, fileName: name, fileType: 'zip', size: bundle.length });
    const job = (await t.call('POST', '/jobs', { slug: sent.slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`, { scenePath: 'sample.blend' });
    const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
    expect(validated.status, JSON.stringify(validated.failedReason)).toBe('validated');
    expect((await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' } })).status).toBe(200);
    const done = await waitForJob(t, job.id, ended, 300_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    const fetches = (await completedChunks(redis.url, job.id)).map((c) => c.returnvalue?.sceneFetch).filter(Boolean);
    const frames = await Promise.all(t.node.ctx.jobs.frames(job.id).map(async (f) => decodePng(await readFile(f.filePath)).data));
    return { sent, fetches, frames };
  }

  it("fetches only the changed chunks of a new version of yesterday's scene, and renders it as the first", async () => {
    const texture = seeded(4 * 1024 * 1024, 'texture');
    const first = await render(zipBytes([{ name: 'sample.blend', data: blend }, { name: 'textures/paint.png', data: texture }]), 'v1.zip');
    expect(first.fetches).toHaveLength(1);
    expect(first.fetches[0].bytesFetched).toBeGreaterThan(texture.length);

    const repainted = Buffer.from(texture);
    repainted.write('one brush stroke', 2_000_000);
    const bundle = zipBytes([{ name: 'sample.blend', data: blend }, { name: 'textures/paint.png', data: repainted }]);
    for (let i = 0; i < 100 && !t.logs().includes('chunks of a file received whole stored'); i++) await new Promise((r) => setTimeout(r, 50));
    const second = await render(bundle, 'v2.zip');
    expect(second.sent.bytesSent).toBeLessThan(bundle.length * 0.1);
    expect(second.fetches).toHaveLength(1);
    expect(second.fetches[0].bytesFetched).toBeLessThanOrEqual(bundle.length * 0.1);
    expect(second.fetches[0].bytesFetched + second.fetches[0].bytesReused).toBe(bundle.length);
    expect(second.frames.length).toBe(2);
    second.frames.forEach((pixels, i) => expect(pixels.equals(first.frames[i]!), `frame ${i + 1} pixel-identical`).toBe(true));
  });
});
