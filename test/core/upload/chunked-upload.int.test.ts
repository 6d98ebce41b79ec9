import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, chunkedUploadsInfo } from '../../../src/core/api';
import { describeFile } from '../../../src/core/chunking';
import { uploadChunked, type ChunkedUploadOptions } from '../../../src/core/upload';
import { createKey } from '../../../src/render-node/store/keys';
import { startTestNode, type TestNode } from '../../helpers/node';

/** Pseudo-random bytes from a seed (the same every run), as incompressible as a packed texture. */
function seeded(size: number, seed: string): Buffer {
  const out = Buffer.alloc(size);
  for (let at = 0, n = 0; at < size; n++) at += createHash('sha256').update(`${seed}:${n}`).digest().copy(out, at);
  return out;
}

describe('chunked uploads to a real node', () => {
  let t: TestNode;
  let dir: string;
  let api: ApiClient;
  const scene = seeded(3 * 1024 * 1024, 'scene');

  beforeAll(async () => {
    t = await startTestNode({ blender: null });
    dir = await mkdtemp(join(tmpdir(), 'rd-chunked-'));
    api = new ApiClient({ baseUrl: t.url, apiKey: t.key });
  });
  afterAll(async () => {
    await t?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const fileOf = async (name: string, bytes: Buffer) => {
    const path = join(dir, name);
    await writeFile(path, bytes);
    return path;
  };
  const send = async (bytes: Buffer, extra: Partial<ChunkedUploadOptions> = {}) =>
    uploadChunked({ api, filePath: await fileOf('scene.blend', bytes), fileName: 'scene.blend', fileType: 'blend', size: bytes.length, ...extra });
  const stored = (slug: string) => readFile(t.node.ctx.storage.uploadPath(slug));
  const INGESTED = 'chunks of a file received whole stored';
  const ingestions = () => t.logs().split(INGESTED).length - 1;
  /** Waits for the node to keep the chunks of the files it received whole so far (in the background). */
  const ingested = async (count: number) => {
    for (let i = 0; i < 200 && ingestions() < count; i++) await new Promise((r) => setTimeout(r, 25));
    expect(ingestions()).toBeGreaterThanOrEqual(count);
  };

  it('says the node takes chunked uploads', async () => {
    expect(await chunkedUploadsInfo(api)).toMatchObject({ chunking: { avgBytes: 32 * 1024 }, encodings: ['raw', 'zstd'] });
  });

  it('takes a first file whole into an upload a job is made from, then sends only the chunks around a change', async () => {
    const first = await send(scene);
    expect(first).toMatchObject({ bytesReused: 0, bytesSent: scene.length });
    expect(t.logs()).toContain('chunked upload received whole');
    expect((await stored(first.slug)).equals(scene)).toBe(true);
    await ingested(1);
    const job = await t.call('POST', '/jobs', { slug: first.slug });
    expect(job.status).toBe(201);

    const changed = Buffer.concat([scene.subarray(0, 1_000_000), Buffer.from('one object moved'), scene.subarray(1_000_000)]);
    const events: { bytes: number; total: number | null; reused?: number }[] = [];
    const second = await send(changed, { onProgress: (p) => events.push(p), progressIntervalMs: 0 });
    expect(second.bytesSent).toBeLessThan(changed.length * 0.1);
    expect(second.bytesReused).toBeGreaterThan(changed.length * 0.9);
    expect(events.at(-1)).toMatchObject({ done: true, reused: second.bytesReused, total: changed.length - second.bytesReused });
    expect((await stored(second.slug)).equals(changed)).toBe(true);
  });

  it('sends a file that compresses well in compressed chunks, even the first time', async () => {
    const text = Buffer.from('Cube.001 location 1.0 2.0 3.0\n'.repeat(40_000));
    const sent = await send(text, { firstTime: true, sha256: createHash('sha256').update(text).digest('hex') });
    expect(sent.bytesReused).toBeLessThan(text.length / 2);
    expect(sent.bytesSent).toBeLessThan(text.length / 5);
    expect((await stored(sent.slug)).equals(text)).toBe(true);
  });

  it('sends a project never sent here whole and uncut; the node cuts it and keeps its chunks for that key alone', async () => {
    const { key } = createKey(t.node.ctx.db, 'first-time');
    const fresh = new ApiClient({ baseUrl: t.url, apiKey: key });
    const bytes = seeded(3 * 1024 * 1024, 'never sent');
    const sendFresh = async (content: Buffer, firstTime: boolean, extra: Partial<ChunkedUploadOptions> = {}) =>
      uploadChunked({ api: fresh, filePath: await fileOf('fresh.blend', content), fileName: 'fresh.blend', fileType: 'blend', size: content.length, sha256: createHash('sha256').update(content).digest('hex'), firstTime, ...extra });
    const before = ingestions();
    const first = await sendFresh(bytes, true);
    expect(first).toMatchObject({ bytesReused: 0, bytesSent: bytes.length });
    expect((await stored(first.slug)).equals(bytes)).toBe(true);
    await ingested(before + 1);
    expect(t.logs()).toContain('(cut by the node)');
    const cut = (await describeFile(join(dir, 'fresh.blend'))).chunks.map(({ hash, size }) => ({ hash, size }));
    expect(t.node.ctx.chunkStore!.chunksOfUpload(first.slug)).toEqual(cut);

    const changed = Buffer.concat([bytes.subarray(0, 1_500_000), Buffer.from('one object moved'), bytes.subarray(1_500_000)]);
    const again = await sendFresh(changed, false);
    expect(again.bytesSent).toBeLessThan(changed.length * 0.1);
    expect(again.bytesReused).toBeGreaterThan(changed.length * 0.9);
    expect((await stored(again.slug)).equals(changed)).toBe(true);
    expect((await send(changed)).bytesReused).toBe(0);
  });

  it('keeps what arrived of a first-time PUT stopped half-way, so the next try sends only the rest', async () => {
    const { key } = createKey(t.node.ctx.db, 'first-time-stopped');
    const fresh = new ApiClient({ baseUrl: t.url, apiKey: key });
    const bytes = seeded(4 * 1024 * 1024, 'never sent, stopped');
    const path = await fileOf('stopped.blend', bytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const options = { api: fresh, filePath: path, fileName: 'stopped.blend', fileType: 'blend' as const, size: bytes.length, sha256 };
    const stop = new AbortController();
    const before = ingestions();
    const stopped = uploadChunked({ ...options, firstTime: true, signal: stop.signal, progressIntervalMs: 0, onProgress: (p) => p.bytes > 2 * 1024 * 1024 && stop.abort() });
    await expect(stopped).rejects.toThrow();
    await ingested(before + 1);
    const resumed = await uploadChunked({ ...options, firstTime: false });
    expect(resumed.bytesReused).toBeGreaterThan(1024 * 1024);
    expect(resumed.bytesSent).toBeLessThan(bytes.length - 1024 * 1024);
    expect((await stored(resumed.slug)).equals(bytes)).toBe(true);
  });

  it('keeps no chunk list for a file sent whole, uncut, that is not the one it was described as', async () => {
    const { key } = createKey(t.node.ctx.db, 'first-time-wrong');
    const fresh = new ApiClient({ baseUrl: t.url, apiKey: key });
    const bytes = seeded(1024 * 1024, 'described wrong');
    const before = ingestions();
    const sent = await uploadChunked({ api: fresh, filePath: await fileOf('wrong.blend', bytes), fileName: 'wrong.blend', fileType: 'blend', size: bytes.length, sha256: 'f'.repeat(64), firstTime: true });
    for (let i = 0; i < 200 && !t.logs().includes('kept no chunk list'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(t.logs()).toContain('is not the one described');
    expect(ingestions()).toBe(before);
    expect(t.node.ctx.chunkStore!.chunksOfUpload(sent.slug)).toBeNull();
  });

  it('refuses to complete an upload described without chunks before its file arrived whole', async () => {
    const created = await t.call('POST', '/node/chunked-uploads', { fileName: 'x.blend', fileType: 'blend', manifest: { size: 5, sha256: '0'.repeat(64) } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ missing: [], bytesReused: 0 });
    const completed = await t.call('POST', `/node/chunked-uploads/${created.json.id}/complete`);
    expect(completed.status).toBe(409);
    expect(JSON.stringify(completed.json)).toContain('send the whole file');
  });

  it('never counts as present for one key what another key sent', async () => {
    const { key } = createKey(t.node.ctx.db, 'other');
    const other = new ApiClient({ baseUrl: t.url, apiKey: key });
    const before = ingestions();
    const sent = await send(scene, { api: other });
    expect(sent).toMatchObject({ bytesReused: 0, bytesSent: scene.length });
    await ingested(before + 1);
    expect((await send(scene, { api: other })).bytesSent).toBe(0);
  });

  it('asks again for a chunk damaged on the node disk, and rebuilds the file right', async () => {
    const bytes = seeded(1024 * 1024, 'damaged');
    const before = ingestions();
    await send(bytes);
    await ingested(before + 1);
    const victimChunk = (await describeFile(join(dir, 'scene.blend'))).chunks[3]!;
    const victim = join(t.dataDir, 'chunks', 'objects', victimChunk.hash.slice(0, 2), victimChunk.hash);
    const original = await readFile(victim);
    const broken = Buffer.from(original);
    broken[10] = broken[10]! ^ 0xff;
    await writeFile(victim, broken);
    const again = await send(bytes);
    expect(again.bytesReused).toBe(bytes.length);
    expect(again.bytesSent).toBeGreaterThan(victimChunk.size);
    expect(again.bytesSent).toBeLessThan(victimChunk.size + 4096);
    expect((await readFile(victim)).equals(original)).toBe(true);
    expect((await stored(again.slug)).equals(bytes)).toBe(true);
    expect(t.logs()).toContain('asked for again');
  });

  it('sends only what is still missing after a first upload stopped half-way (sent whole, kept in part)', async () => {
    const bytes = seeded(4 * 1024 * 1024, 'resumed');
    const stop = new AbortController();
    const before = ingestions();
    const stopped = send(bytes, { signal: stop.signal, progressIntervalMs: 0, onProgress: (p) => p.bytes > 2 * 1024 * 1024 && stop.abort() });
    await expect(stopped).rejects.toThrow();
    await ingested(before + 1);
    const resumed = await send(bytes);
    expect(resumed.bytesReused).toBeGreaterThan(1024 * 1024);
    expect(resumed.bytesSent).toBeLessThan(bytes.length - 1024 * 1024);
    expect((await stored(resumed.slug)).equals(bytes)).toBe(true);
  });

  it('refuses chunks whose bytes do not have their hash, and a rebuilt file other than the manifest', async () => {
    const manifest = { size: 5, sha256: '0'.repeat(64), chunks: [{ hash: 'a'.repeat(64), size: 5 }] };
    const created = await t.call('POST', '/node/chunked-uploads', { fileName: 'x.blend', fileType: 'blend', manifest });
    expect(created.status).toBe(201);
    expect(created.json.missing).toEqual(['a'.repeat(64)]);
    const head = Buffer.alloc(37);
    head.write('a'.repeat(64), 0, 32, 'hex');
    head.writeUInt32BE(5, 33);
    const put = await fetch(created.json.chunksUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.concat([head, Buffer.from('hello')]),
    });
    expect(put.status).toBe(400);
    expect(JSON.stringify(await put.json())).toMatch(/chunk_hash_mismatch/);
    const wrongSum = await t.call('POST', '/node/chunked-uploads', { fileName: 'x.blend', fileType: 'blend', manifest: { ...manifest, size: 6 } });
    expect(wrongSum.status).toBe(400);
  });
});

describe('a node without chunked uploads', () => {
  it('answers 404, so the client sends the whole file as to any farm', async () => {
    const t = await startTestNode({ blender: null, chunkStoreMaxBytes: 0 });
    try {
      expect(await chunkedUploadsInfo(new ApiClient({ baseUrl: t.url, apiKey: t.key }))).toBeNull();
    } finally {
      await t.stop();
    }
  });
});
