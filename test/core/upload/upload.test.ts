import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AbortError, TransferError } from '../../../src/core/errors';
import type { TransferProgress } from '../../../src/core/transfer/progress-meter';
import { uploadFile } from '../../../src/core/upload/upload';
import { FakeTime } from '../../helpers/fake-time';
import { HostileServer, cutConnection, failWith, readBody, strictPut } from '../../helpers/hostile-server';
import { blendBytes, tempDir, zipBytes } from '../../helpers/scene-files';

let dir: string;
let blendPath: string;
let zipPath: string;
const SIZE = 3 * 1024 * 1024 + 17;

beforeAll(async () => {
  dir = await tempDir();
  blendPath = join(dir, 'scene.blend');
  await writeFile(blendPath, blendBytes(SIZE));
  zipPath = join(dir, 'pack.zip');
  await writeFile(zipPath, zipBytes([{ name: 'scene.blend', data: blendBytes(100) }]));
});

let server: HostileServer;
let time: FakeTime;
beforeEach(async () => {
  server = await HostileServer.start();
  time = new FakeTime(Date.now());
});
afterEach(() => server.close());

function target(path: string, slug = 'slug-1', expiresInMs = 3_600_000) {
  return { uploadUrl: `${server.url}${path}?X-Signature=abc`, slug, expiresAt: new Date(time.now() + expiresInMs).toISOString() };
}

describe('uploadFile', () => {
  it('PUTs the exact bytes with Content-Length, Content-Type and no Authorization', async () => {
    let received = -1;
    server.route('PUT', '/bucket/a', strictPut({ contentType: 'application/octet-stream', onBody: (length) => (received = length) }));
    const events: TransferProgress[] = [];
    const result = await uploadFile({ filePath: blendPath, size: SIZE, fileType: 'blend', target: target('/bucket/a'), onProgress: (p) => events.push(p), clock: time });
    expect(received).toBe(SIZE);
    expect(result).toMatchObject({ bytes: SIZE, attempts: 1, target: { slug: 'slug-1' } });
    const put = server.requestsTo('PUT', '/bucket/a')[0]!;
    expect(put.headers['content-length']).toBe(String(SIZE));
    expect(put.headers['transfer-encoding']).toBeUndefined();
    expect(put.headers.authorization).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ bytes: SIZE, total: SIZE, done: true, etaSeconds: 0 });
  });

  it('sends the zip media type for a zip', async () => {
    server.route('PUT', '/bucket/z', strictPut({ contentType: 'application/zip' }));
    const { size } = await import('node:fs/promises').then((fs) => fs.stat(zipPath));
    await expect(uploadFile({ filePath: zipPath, size, fileType: 'zip', target: target('/bucket/z') })).resolves.toMatchObject({ attempts: 1 });
  });

  it('throttles progress events', async () => {
    server.route('PUT', '/bucket/a', strictPut({ contentType: 'application/octet-stream' }));
    const events: TransferProgress[] = [];
    await uploadFile({ filePath: blendPath, size: SIZE, fileType: 'blend', target: target('/bucket/a'), onProgress: (p) => events.push(p), chunkBytes: 16 * 1024, progressIntervalMs: 1_000_000 });
    expect(events).toHaveLength(1);
    expect(events[0]!.done).toBe(true);
  });

  it('retries the whole PUT after a dropped connection', async () => {
    server.next('PUT', '/bucket/a', cutConnection, 2);
    server.route('PUT', '/bucket/a', strictPut({ contentType: 'application/octet-stream' }));
    const result = await uploadFile({ filePath: blendPath, size: SIZE, fileType: 'blend', target: target('/bucket/a'), sleep: time.sleep, clock: time, random: () => 0.5 });
    expect(result.attempts).toBe(3);
    expect(time.sleeps).toEqual([500, 1000]);
  });

  it('gives up after the attempt limit with a TransferError', async () => {
    server.route('PUT', '/bucket/a', cutConnection);
    await expect(uploadFile({ filePath: blendPath, size: SIZE, fileType: 'blend', target: target('/bucket/a'), sleep: time.sleep, clock: time, maxAttempts: 3 })).rejects.toBeInstanceOf(TransferError);
    expect(server.requestsTo('PUT', '/bucket/a')).toHaveLength(3);
  });

  it('asks for a fresh target when the URL answers 403 expired', async () => {
    server.route('PUT', '/bucket/old', async (req, res) => {
      await readBody(req, 0);
      await failWith(403, 'Request has expired')(req, res);
    });
    server.route('PUT', '/bucket/new', strictPut({ contentType: 'application/octet-stream' }));
    let asked = 0;
    const result = await uploadFile({
      filePath: blendPath,
      size: SIZE,
      fileType: 'blend',
      target: target('/bucket/old'),
      refreshTarget: async () => {
        asked++;
        return target('/bucket/new', 'slug-2');
      },
    });
    expect(asked).toBe(1);
    expect(result.target.slug).toBe('slug-2');
  });

  it('asks for a fresh target before sending when the local clock is past expiresAt', async () => {
    server.route('PUT', '/bucket/new', strictPut({ contentType: 'application/octet-stream' }));
    const result = await uploadFile({ filePath: blendPath, size: SIZE, fileType: 'blend', target: target('/bucket/old', 'slug-1', -1000), refreshTarget: async () => target('/bucket/new', 'slug-2'), clock: time });
    expect(result.target.slug).toBe('slug-2');
    expect(server.requestsTo('PUT', '/bucket/old')).toHaveLength(0);
  });

  it('fails clearly on an expired URL when no fresh one can be had', async () => {
    server.route('PUT', '/bucket/old', async (req, res) => {
      await readBody(req, 0);
      await failWith(403, 'Request has expired')(req, res);
    });
    await expect(uploadFile({ filePath: blendPath, size: SIZE, fileType: 'blend', target: target('/bucket/old') })).rejects.toMatchObject({ kind: 'transfer', code: 'upload-url-expired' });
  });

  it('does not retry other 4xx', async () => {
    server.route('PUT', '/bucket/a', async (req, res) => {
      await readBody(req, 0);
      await failWith(400, 'bad request')(req, res);
    });
    await expect(uploadFile({ filePath: blendPath, size: SIZE, fileType: 'blend', target: target('/bucket/a'), sleep: time.sleep })).rejects.toMatchObject({ kind: 'transfer', status: 400 });
    expect(server.requestsTo('PUT', '/bucket/a')).toHaveLength(1);
  });

  it('stops sending as soon as the storage refuses, and drops the connection', async () => {
    const bigSize = 64 * 1024 * 1024;
    const bigPath = join(dir, 'big.blend');
    await writeFile(bigPath, blendBytes(bigSize));
    let receivedAfterAnswer = 0;
    const sockets: Socket[] = [];
    let connectionClosed: () => void = () => undefined;
    const closed = new Promise<boolean>((resolve) => (connectionClosed = () => resolve(true)));
    const storage = createServer((socket) => {
      sockets.push(socket);
      let head = Buffer.alloc(0);
      let answered = false;
      socket.on('data', (chunk: Buffer) => {
        if (answered) {
          receivedAfterAnswer += chunk.length;
          return;
        }
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        answered = true;
        receivedAfterAnswer += head.length - end - 4;
        socket.write('HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: 12\r\n\r\nAccess');
        setTimeout(() => socket.write('Denied'), 300);
      });
      socket.on('error', () => undefined);
      socket.on('close', connectionClosed);
    });
    await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(storage.address() as AddressInfo).port}/bucket/a?X-Signature=abc`;
      const upload = uploadFile({ filePath: bigPath, size: bigSize, fileType: 'blend', target: { uploadUrl: url, slug: 's', expiresAt: new Date(time.now() + 3_600_000).toISOString() }, chunkBytes: 256 * 1024, clock: time });
      await expect(upload).rejects.toMatchObject({ kind: 'transfer', status: 403 });
      const dropped = await Promise.race([closed, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000))]);
      expect(dropped).toBe(true);
      expect(receivedAfterAnswer).toBeLessThan(bigSize / 4);
    } finally {
      for (const socket of sockets) socket.destroy();
      storage.close();
    }
  });

  it('stops at once on abort', async () => {
    server.route('PUT', '/bucket/slow', (req) => {
      req.pause();
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expect(uploadFile({ filePath: blendPath, size: SIZE, fileType: 'blend', target: target('/bucket/slow'), signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
