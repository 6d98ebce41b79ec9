import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRange, serveFile } from '../../../src/render-node/http/serve-file';

describe('parseRange', () => {
  it('sends everything without a header', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('', 100)).toBeNull();
  });

  it('reads a closed range', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=10-10', 100)).toEqual({ start: 10, end: 10 });
    expect(parseRange(' bytes=0-99 ', 100)).toEqual({ start: 0, end: 99 });
  });

  it('reads an open range to the end of the file', () => {
    expect(parseRange('bytes=5-', 100)).toEqual({ start: 5, end: 99 });
    expect(parseRange('bytes=99-', 100)).toEqual({ start: 99, end: 99 });
  });

  it('reads a suffix range as the last bytes', () => {
    expect(parseRange('bytes=-3', 100)).toEqual({ start: 97, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });

  it('clips an end beyond the file to its last byte', () => {
    expect(parseRange('bytes=90-1000', 100)).toEqual({ start: 90, end: 99 });
  });

  it('calls a start at or beyond the end unsatisfiable', () => {
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=150-200', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-5', 0)).toBe('unsatisfiable');
  });

  it('calls a zero-length suffix unsatisfiable', () => {
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
  });

  it('calls a range that ends before it starts unsatisfiable', () => {
    expect(parseRange('bytes=9-5', 100)).toBe('unsatisfiable');
  });

  it('ignores malformed ranges', () => {
    for (const header of ['bytes=', 'bytes=-', 'bytes=a-b', 'bytes=1-2x', 'items=0-9', 'bytes 0-9', '0-9', 'bytes=1.5-3']) {
      expect(parseRange(header, 100)).toBeNull();
    }
  });

  it('ignores multiple ranges', () => {
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('bytes=0-1, 5-', 100)).toBeNull();
  });
});

describe('serveFile', () => {
  let dir: string;
  let app: FastifyInstance;
  const content = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 31 + 7) % 256));
  const size = content.length;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rd-serve-'));
    await writeFile(join(dir, 'frame_0001.png'), content);
    await writeFile(join(dir, 'empty.exr'), Buffer.alloc(0));
    await writeFile(join(dir, 'data.weird'), 'x');
    app = Fastify();
    app.get('/frame', async (request, reply) => {
      await serveFile(request, reply, join(dir, 'frame_0001.png'), 'shot "1"\r\n.png');
      return reply;
    });
    app.get('/plain', async (request, reply) => {
      await serveFile(request, reply, join(dir, 'frame_0001.png'));
      return reply;
    });
    app.route({
      method: ['GET', 'HEAD'],
      url: '/explicit-head',
      exposeHeadRoute: false,
      handler: async (request, reply) => {
        await serveFile(request, reply, join(dir, 'frame_0001.png'));
        return reply;
      },
    });
    app.get('/empty', async (request, reply) => {
      await serveFile(request, reply, join(dir, 'empty.exr'));
      return reply;
    });
    app.get('/weird', async (request, reply) => {
      await serveFile(request, reply, join(dir, 'data.weird'));
      return reply;
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('sends the whole file with its length, a strong ETag and range support', async () => {
    const res = await get('/frame');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(content);
    expect(res.headers['content-length']).toBe(String(size));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-type']).toBe('image/png');
    expect(String(res.headers.etag)).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(String(res.headers['last-modified'])).getTime()).not.toBeNaN();
    expect(res.headers['content-range']).toBeUndefined();
  });

  it('names the download safely when asked to', async () => {
    const res = await get('/frame');
    expect(res.headers['content-disposition']).toBe('attachment; filename="shot _1___.png"');
    expect((await get('/plain')).headers['content-disposition']).toBeUndefined();
  });

  it('gives the same ETag for the same file and a new one when it changes', async () => {
    const first = String((await get('/weird')).headers.etag);
    expect(String((await get('/weird')).headers.etag)).toBe(first);
    await writeFile(join(dir, 'data.weird'), 'longer content');
    expect(String((await get('/weird')).headers.etag)).not.toBe(first);
  });

  it('falls back to a generic content type', async () => {
    expect((await get('/weird')).headers['content-type']).toBe('application/octet-stream');
  });

  it('sends a byte range as 206 with Content-Range and exactly those bytes', async () => {
    const res = await get('/frame', { range: 'bytes=100-199' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-199/${size}`);
    expect(res.headers['content-length']).toBe('100');
    expect(res.rawPayload).toEqual(content.subarray(100, 200));
  });

  it('sends an open range and a suffix range', async () => {
    const open = await get('/frame', { range: 'bytes=990-' });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload).toEqual(content.subarray(990));
    expect(open.headers['content-range']).toBe(`bytes 990-999/${size}`);
    const suffix = await get('/frame', { range: 'bytes=-4' });
    expect(suffix.rawPayload).toEqual(content.subarray(size - 4));
    expect(suffix.headers['content-range']).toBe(`bytes 996-999/${size}`);
  });

  it('honours a range when If-Range carries the current ETag', async () => {
    const etag = String((await get('/frame')).headers.etag);
    const res = await get('/frame', { range: 'bytes=0-9', 'if-range': etag });
    expect(res.statusCode).toBe(206);
    expect(res.rawPayload).toEqual(content.subarray(0, 10));
  });

  it('sends the full file when If-Range carries a stale ETag', async () => {
    const res = await get('/frame', { range: 'bytes=0-9', 'if-range': '"3e8-1"' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-range']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(size));
    expect(res.rawPayload).toEqual(content);
  });

  it('answers 304 without a body when If-None-Match carries the current ETag', async () => {
    const etag = String((await get('/frame')).headers.etag);
    const res = await get('/frame', { 'if-none-match': etag });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload).toHaveLength(0);
    expect(res.headers.etag).toBe(etag);
    expect((await get('/frame', { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('answers 416 with the file size for an unsatisfiable range', async () => {
    const res = await get('/frame', { range: `bytes=${size}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${size}`);
    expect(res.json()).toEqual({ error: { code: 'range_not_satisfiable', message: expect.stringContaining(`${size} bytes`) } });
  });

  it('sends everything for a malformed or multi-part range', async () => {
    for (const range of ['bytes=abc', 'bytes=0-1,4-5']) {
      const res = await get('/frame', { range });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload).toEqual(content);
    }
  });

  it('answers HEAD on a route that lists HEAD itself with the headers and no body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/explicit-head' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(size));
    expect(res.rawPayload).toHaveLength(0);
  });

  it('answers a ranged HEAD with the range length and no body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/explicit-head', headers: { range: 'bytes=10-19' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 10-19/${size}`);
    expect(res.headers['content-length']).toBe('10');
    expect(res.rawPayload).toHaveLength(0);
  });

  it('sends an empty file as an empty 200', async () => {
    const res = await get('/empty');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('0');
    expect(res.headers['content-type']).toBe('image/x-exr');
    expect(res.rawPayload).toHaveLength(0);
  });
});
