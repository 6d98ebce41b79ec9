import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { runCli } from '../../helpers/cli';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../../helpers/node';
import { decodePng } from '../../helpers/png-pixels';
import { requireRedis, startRedis, type TestRedis } from '../../helpers/redis';
import { completedChunks, startWorkerProcess, stopWorker, TEST_WORKER_SECRET, type WorkerProcess } from '../../helpers/workers';
import { probeBlender } from '../../../src/render-node/blender/probe';
import { CHUNK_QUEUE, REDIS_PREFIX, TAMPERED_MARK, type ChunkData } from '../../../src/render-node/distributed/protocol';
import { signWorkerRequest } from '../../../src/render-node/distributed/request-signature';
import { workerKeys } from '../../../src/render-node/worker-access/worker-secret';

const blenderPath = requireBlender();
const redisServer = requireRedis();
const FRAMES = [1, 2, 3, 4];
const frameName = (f: number) => `sample_000${f}.png`;

/** Poll until `read` gives a value `ok` accepts. */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!blenderPath || !redisServer)('distributed mode with a hostile Redis: signed chunks, signed requests, a fixed node address', () => {
  let redis: TestRedis;
  let work: string;
  let t: TestNode;
  let scene: string;
  let client: Redis;
  let queue: Queue;
  let proxy: Server;
  let proxied = 0;
  let worker: WorkerProcess | null = null;
  let untouched = '';
  let hostile = '';
  const keys = workerKeys(TEST_WORKER_SECRET);

  const startWorker = async () => {
    worker = await startWorkerProcess({ redis: redis.url, node: t.url, name: 'alpha', cacheDir: join(work, 'cache'), blender: blenderPath!, threads: 1 });
  };
  const waiting = async (jobId: string) => (await queue.getJobs(['waiting', 'prioritized'])).filter((j) => (j.data as ChunkData).jobId === jobId);
  const frames = async (jobId: string) => Promise.all(FRAMES.map(async (f) => decodePng(await readFile(join(t.dataDir, 'jobs', jobId, 'frames', frameName(f))))));

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-tamper-'));
    redis = await startRedis(redisServer!);
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    t = await startTestNode({ blender, distributed: { redis: { url: redis.url }, chunkSize: 1, reconcileMs: 1000 } });
    scene = await makeSampleScene(work, { frames: FRAMES.length });
    client = new Redis(redis.url, { maxRetriesPerRequest: null });
    queue = new Queue(CHUNK_QUEUE, { connection: client, prefix: REDIS_PREFIX });
    proxy = createServer((req, res) => {
      proxied++;
      res.statusCode = 502;
      res.end();
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  });

  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await queue?.close();
    client?.disconnect();
    proxy?.close();
    await t?.stop();
    await redis?.dispose();
  });

  it('renders an untouched job (the reference)', async () => {
    await startWorker();
    untouched = await startRenderJob(t, 'sample.blend', await readFile(scene), {});
    const done = await waitForJob(t, untouched, (j) => ['completed', 'failed'].includes(j.status), 240_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    // The worker stays connected (a render's Blender version is chosen among live workers), but takes
    // nothing while the queue is paused, so the next job's chunks wait in Redis for the hostile reader.
    await queue.pause();
  });

  it('a Redis reader cannot fetch the scene or upload a frame with the URLs in Redis, and a signed request fits nothing else', async () => {
    hostile = await startRenderJob(t, 'sample.blend', await readFile(scene), {});
    const queued = await until(() => waiting(hostile), (list) => list.length === FRAMES.length, 'the chunks to wait in the queue');
    const chunk = queued.map((j) => j.data as ChunkData).find((c) => c.index === 0)!;
    const base = `/storage/render/${hostile}/chunks`;
    const realFrame = await readFile(join(t.dataDir, 'jobs', untouched, 'frames', frameName(chunk.frames[0]!)));
    const url = (rest: string, query: string) => `${base}/${rest}?${query}`;
    const send = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer) =>
      fetch(`${t.url}${path}`, { method, headers: { ...(body ? { 'content-type': 'application/octet-stream' } : {}), ...headers }, body });
    const refusal = async (res: Response) => ({ status: res.status, code: ((await res.json()) as any).error?.code });

    // What a Redis reader has: the chunk's URLs, not the worker secret.
    expect(await refusal(await send('GET', url('0/scene', chunk.get)))).toEqual({ status: 403, code: 'worker_signature_missing' });
    const framePath = url(`0/frames/${chunk.frames[0]}/${frameName(chunk.frames[0]!)}`, chunk.put);
    expect(await refusal(await send('PUT', framePath, {}, Buffer.from('fake!')))).toEqual({ status: 403, code: 'worker_signature_missing' });
    expect(await refusal(await send('PUT', framePath, {}, realFrame))).toEqual({ status: 403, code: 'worker_signature_missing' });
    const forged = { 'x-renderdrop-expires': String(Math.floor(Date.now() / 1000) + 60), 'x-renderdrop-signature': 'a'.repeat(64) };
    expect(await refusal(await send('PUT', framePath, forged, realFrame))).toEqual({ status: 403, code: 'worker_signature_invalid' });

    // A request a worker signed, replayed elsewhere: another path, chunk, job or method.
    const statusPath = url('0/status', chunk.get);
    const signed = signWorkerRequest(keys, 'GET', statusPath);
    expect((await send('GET', statusPath, signed)).status, 'the signed request itself').toBe(200);
    for (const [what, path] of [
      ['the scene', url('0/scene', chunk.get)],
      ['another chunk', url('1/status', chunk.get)],
      ['another job', `/storage/render/${untouched}/chunks/0/status?${chunk.get}`],
    ] as const) {
      expect(await refusal(await send('GET', path, signed)), what).toEqual({ status: 403, code: 'worker_signature_invalid' });
    }
    const signedGet = signWorkerRequest(keys, 'GET', framePath);
    expect(await refusal(await send('PUT', framePath, signedGet, Buffer.from('fake!'))), 'another method').toEqual({ status: 403, code: 'worker_signature_invalid' });

    // The signature covers the body: a worker's signed upload whose bytes were changed on the way is refused.
    const signedPut = (path: string, body: Buffer) => signWorkerRequest(keys, 'PUT', path, new Date(), createHash('sha256').update(body).digest('hex'));
    const swapped = await send('PUT', framePath, signedPut(framePath, realFrame), Buffer.concat([realFrame.subarray(0, -1), Buffer.from([realFrame.at(-1)! ^ 1])]));
    expect(await refusal(swapped)).toEqual({ status: 403, code: 'worker_body_mismatch' });
    expect(await refusal(await send('PUT', framePath, signWorkerRequest(keys, 'PUT', framePath), realFrame)), 'a body signed as empty').toEqual({ status: 403, code: 'worker_body_mismatch' });

    // A worker's upload the node refuses (5 bytes, not a PNG) fails that upload only.
    const fiveBytes = await send('PUT', framePath, signedPut(framePath, Buffer.from('fake!')), Buffer.from('fake!'));
    expect(await refusal(fiveBytes)).toEqual({ status: 422, code: 'frame_refused' });

    // Previews: signed like frames, only a small whole PNG under the frame's own name is kept.
    const frame = chunk.frames[0]!;
    const previewPath = url(`0/previews/${frame}/${frameName(frame)}`, chunk.put);
    const realPreview = await readFile(join(t.dataDir, 'jobs', untouched, 'previews', frameName(frame)));
    const kept = join(t.dataDir, 'jobs', hostile, 'previews', frameName(frame));
    expect(await refusal(await send('PUT', previewPath, {}, realPreview))).toEqual({ status: 403, code: 'worker_signature_missing' });
    expect(await refusal(await send('PUT', previewPath, signedPut(previewPath, realFrame.subarray(0, 40)), realFrame.subarray(0, 40)))).toEqual({ status: 422, code: 'preview_refused' });
    const renamed = url(`0/previews/${frame}/evil.png`, chunk.put);
    expect(await refusal(await send('PUT', renamed, signedPut(renamed, realPreview), realPreview))).toEqual({ status: 400, code: 'unexpected_name' });
    const huge = await send('PUT', previewPath, signedPut(previewPath, Buffer.alloc(5 * 1024 * 1024)), Buffer.alloc(5 * 1024 * 1024));
    expect(await refusal(huge)).toEqual({ status: 413, code: 'too_large' });
    await expect(stat(kept)).rejects.toThrow();
    const stored = await send('PUT', previewPath, signedPut(previewPath, realPreview), realPreview);
    expect([stored.status, await stored.json()]).toEqual([200, { stored: true }]);
    expect((await readFile(kept)).equals(realPreview)).toBe(true);

    const job = (await t.call('GET', `/jobs/${hostile}`)).json.data;
    expect(job.status).toBe('booting');
    expect(job.progress.completedFrames).toBe(0);
  });

  it('chunks altered in Redis (camera, resolution, frames, scene hash) and a rewritten node address change nothing: the frames equal the untouched run\'s', async () => {
    expect(hostile).not.toBe('');
    const queued = await waiting(hostile);
    expect(queued).toHaveLength(FRAMES.length);
    const other = await makeSampleScene(join(work, 'other'), { frames: 2 });
    const otherHash = createHash('sha256').update(await readFile(other)).digest('hex');
    const changes: ((c: ChunkData) => void)[] = [
      (c) => (c.plan.camera = 'Spy'),
      (c) => (c.plan.resolution = [1024, 1024]),
      (c) => (c.frames = [...c.frames, 99]),
      (c) => (c.scene = { ...c.scene, sha256: otherHash }),
    ];
    for (const entry of queued) {
      const data = structuredClone(entry.data as ChunkData);
      changes[data.index]!(data);
      await client.hset(`${REDIS_PREFIX}:${CHUNK_QUEUE}:${entry.id}`, 'data', JSON.stringify(data));
    }
    const { port } = proxy.address() as AddressInfo;
    await client.set(`${REDIS_PREFIX}:node:${t.node.ctx.workspaceId}:url`, `http://127.0.0.1:${port}`);

    await queue.resume();
    const done = await waitForJob(t, hostile, (j) => ['completed', 'failed'].includes(j.status), 240_000);
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
    expect(done.progress).toEqual({ completedFrames: 4, totalFrames: 4 });

    const refused = (await queue.getJobs(['failed'])).filter((j) => (j.data as ChunkData).jobId === hostile);
    expect(refused).toHaveLength(4);
    for (const j of refused) expect(j.failedReason).toContain(TAMPERED_MARK);
    expect(worker!.output().match(/refused a tampered chunk/g)?.length).toBe(4);
    expect(proxied, 'requests that went to the address written in Redis').toBe(0);
    expect((await completedChunks(redis.url, hostile)).map((c) => c.data.generation)).toEqual([1, 1, 1, 1]);

    const ours = await frames(hostile);
    const reference = await frames(untouched);
    FRAMES.forEach((f, i) => {
      expect([ours[i]!.width, ours[i]!.height], `frame ${f} size`).toEqual([reference[i]!.width, reference[i]!.height]);
      expect(Buffer.compare(ours[i]!.data, reference[i]!.data), `frame ${f} differs from the untouched run`).toBe(0);
    });
  });

  it('the worker secret: made once by the node command (0600), required by workers, never taken from the command line', async () => {
    const data = join(work, 'secret-node');
    const made = await runCli(['node', 'worker-secret', '--data', data]);
    expect(made.code, made.stderr).toBe(0);
    const secret = made.stdout.trim().split('\n').pop()!;
    expect(secret).toMatch(/^RW-[A-Za-z0-9_-]{43}$/);
    expect((await stat(join(data, 'worker-secret'))).mode & 0o777).toBe(0o600);
    const again = await runCli(['node', 'worker-secret', '--data', data]);
    expect(again.code).toBe(1);
    expect(again.stdout).not.toContain(secret);

    const none = await runCli(['node', 'worker', '--redis', redis.url, '--node', t.url, '--cache', join(work, 'unused')], { env: { RENDERDROP_WORKER_SECRET: '' } });
    expect(none.code).toBe(1);
    expect(none.stderr.trim().split('\n')).toEqual(["renderdrop: The worker needs the node's worker secret: set RENDERDROP_WORKER_SECRET, or give a file holding it with --secret-file."]);
    const noNode = await runCli(['node', 'worker', '--redis', redis.url, '--cache', join(work, 'unused')], { env: { RENDERDROP_WORKER_SECRET: secret, RENDERDROP_NODE_URL: '' } });
    expect(noNode.code).toBe(1);
    expect(noNode.stderr).toContain("needs the node's address");
  });
});
