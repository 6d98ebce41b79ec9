import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uploadFile } from '../../../src/core/upload/upload';
import { createRenderNode } from '../../../src/render-node/server';
import { startTestNode, type TestNode } from '../../helpers/node';

const SIZE = 4 * 1024 * 1024;
const HALF = SIZE / 2;
const dirs: string[] = [];
const nodes: TestNode[] = [];

afterEach(async () => {
  await Promise.all(nodes.splice(0).map((t) => t.stop().catch(() => undefined)));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function nodeOn(dataDir: string, extra: { shutdownGraceMs?: number } = {}): Promise<TestNode> {
  const t = await startTestNode({ blender: null, dataDir, shutdownGraceMs: extra.shutdownGraceMs });
  nodes.push(t);
  return t;
}

async function freshDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rd-shutdown-'));
  dirs.push(dir);
  return dir;
}

async function newUpload(t: TestNode): Promise<{ slug: string; uploadUrl: string }> {
  const res = await t.call('POST', '/uploads', { fileName: 'shot.blend', fileType: 'blend' });
  expect(res.status).toBe(201);
  return { slug: res.json.slug, uploadUrl: res.json.uploadUrl };
}

/** A PUT of SIZE bytes whose first half is sent at once; the rest is sent by `sendRest`. */
function halfSentPut(url: string): { request: ClientRequest; answer: Promise<{ status: number; headers: IncomingMessage['headers']; body: any } | { error: string }>; sendRest: () => void } {
  const request = httpRequest(url, { method: 'PUT', agent: false, headers: { 'content-type': 'application/octet-stream', 'content-length': String(SIZE) } });
  const answer = new Promise<{ status: number; headers: IncomingMessage['headers']; body: any } | { error: string }>((resolve) => {
    request.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    request.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
  });
  request.write(Buffer.alloc(HALF, 1));
  return { request, answer, sendRest: () => request.end(Buffer.alloc(SIZE - HALF, 2)) };
}

/** Resolves once the node has taken the PUT's first bytes (its scratch file exists). */
async function untilReceiving(dataDir: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const entries = await readdir(join(dataDir, 'uploads')).catch(() => [] as string[]);
    if (entries.some((name) => name.startsWith('.part-'))) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the node never started receiving the upload');
}

describe('stopping the node during an upload', () => {
  it('lets an upload in flight finish, refuses new requests meanwhile, and keeps the upload after a restart', async () => {
    const dataDir = await freshDataDir();
    const t = await nodeOn(dataDir, { shutdownGraceMs: 30_000 });
    const { slug, uploadUrl } = await newUpload(t);
    const put = halfSentPut(uploadUrl);
    await untilReceiving(dataDir);

    const closed = t.node.close();
    const refused = await t.call('GET', '/jobs');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.json).toEqual({ error: { code: 'shutting_down', message: expect.stringContaining('shutting down') } });

    put.sendRest();
    const answer = await put.answer;
    expect(answer).toMatchObject({ status: 200 });
    await closed;

    const again = await nodeOn(dataDir);
    expect(again.node.ctx.uploads.get(slug)).toMatchObject({ size: SIZE, receivedAt: expect.any(String) });
    const job = await again.call('POST', '/jobs', { slug });
    expect(job.status).toBe(201);
  });

  it('answers 503 to an upload still arriving after the grace period, and the same URL takes the file after a restart', async () => {
    const dataDir = await freshDataDir();
    const t = await nodeOn(dataDir, { shutdownGraceMs: 100 });
    const { slug, uploadUrl } = await newUpload(t);
    const put = halfSentPut(uploadUrl);
    await untilReceiving(dataDir);

    await t.node.close();
    const answer = await put.answer;
    expect(answer).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
    expect('body' in answer && answer.body.error).toMatchObject({ code: 'shutting_down', message: expect.stringMatching(/shut down after \d+ of 4194304 bytes/) });
    put.request.destroy();
    expect(t.logs()).toContain('stopped requests still running after the shutdown grace period');

    const again = await restartOn(dataDir, Number(new URL(t.url).port));
    nodes.push(again);
    expect(again.node.ctx.uploads.get(slug)).toMatchObject({ receivedAt: null });
    expect((await readdir(join(dataDir, 'uploads'))).filter((name) => name.startsWith('.part-'))).toEqual([]);
    const retry = await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': String(SIZE) }, body: Buffer.alloc(SIZE, 3) });
    expect(retry.status).toBe(200);
    expect(again.node.ctx.uploads.get(slug)).toMatchObject({ size: SIZE, receivedAt: expect.any(String) });
  });

  it("the app's upload waits as the 503 asks and resumes on the restarted node", async () => {
    const dataDir = await freshDataDir();
    const file = join(dataDir, 'shot.blend');
    await writeFile(file, Buffer.alloc(64 * 1024 * 1024, 7));
    const first = await nodeOn(dataDir, { shutdownGraceMs: 0 });
    const port = Number(new URL(first.url).port);
    const res = await first.call('POST', '/uploads', { fileName: 'shot.blend', fileType: 'blend' });
    let closing: Promise<void> | null = null;
    const waits: number[] = [];
    const result = await uploadFile({
      filePath: file,
      size: 64 * 1024 * 1024,
      fileType: 'blend',
      target: res.json,
      chunkBytes: 256 * 1024,
      progressIntervalMs: 0,
      onProgress: () => {
        closing ??= untilReceiving(dataDir).then(() => first.node.close());
      },
      sleep: async (ms) => {
        waits.push(ms);
        await closing;
        const restarted = await restartOn(dataDir, port);
        nodes.push(restarted);
      },
    });
    expect(result.attempts).toBe(2);
    expect(waits).toEqual([5000]);
    expect(nodes.at(-1)!.node.ctx.uploads.get(res.json.slug)).toMatchObject({ size: 64 * 1024 * 1024, receivedAt: expect.any(String) });
  });
});

/** The node again on the same data folder and port, so the upload URLs it handed out before still lead to it. */
async function restartOn(dataDir: string, port: number): Promise<TestNode> {
  const node = await createRenderNode({ blender: null, dataDir, logLevel: 'silent' });
  const url = await node.listen('127.0.0.1', port);
  return { node, url, api: `${url}/api/external/v1`, key: '', dataDir, logs: () => '', call: () => Promise.reject(new Error('no key')), stop: () => node.close() };
}
