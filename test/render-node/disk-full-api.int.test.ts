import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TransferError } from '../../src/core/errors';
import { uploadFile } from '../../src/core/upload/upload';
import { sampleAnalysis } from '../fixtures/analysis';
import { blendBytes } from '../helpers/scene-files';
import { runCli, startServeProcess } from '../helpers/cli';
import { requireSmallDisk, smallDisksPerTest, type SmallDisk } from '../helpers/small-disk';
import { servedApi } from '../helpers/served-node';
import { startTestNode, uploadBytes, type TestNode } from '../helpers/node';
import { putJobInStatus } from '../helpers/job-status';
import { OpenApiChecker } from '../helpers/openapi';

const canMount = requireSmallDisk();
const MiB = 1024 * 1024;

const scratch = smallDisksPerTest();
const openapi = new OpenApiChecker();
let disk: SmallDisk;

async function nodeOnSmallDisk(sizeMb: number, headroomBytes = MiB): Promise<TestNode> {
  disk = scratch.mount(sizeMb);
  return scratch.keep(await startTestNode({ blender: null, dataDir: join(disk.dir, 'data'), headroomBytes, reserveBytes: 256 * 1024 }));
}

async function healthy(t: TestNode): Promise<void> {
  const res = await fetch(`${t.url}/healthz`);
  expect(res.status).toBe(200);
  expect((await t.call('GET', '/jobs')).status).toBe(200);
}

/** PUT `size` bytes to an upload URL, filling the disk after the first MiB has been stored. */
function putFillingTheDisk(t: TestNode, url: string, size: number): Promise<{ status: number; contentType: string | null; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) } });
    req.on('error', () => {});
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? null, body: text ? JSON.parse(text) : null }));
    });
    const send = async () => {
      req.write(Buffer.alloc(MiB, 1));
      const uploads = join(t.dataDir, 'uploads');
      for (let i = 0; i < 200; i++) {
        const part = (await readdir(uploads)).find((n) => n.startsWith('.part-'));
        if (part && (await stat(join(uploads, part))).size >= MiB) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await disk.fill(64 * 1024);
      for (let sent = MiB; sent < size && !req.destroyed; sent += MiB) {
        await new Promise<void>((r) => req.write(Buffer.alloc(Math.min(MiB, size - sent), 2), () => r()));
      }
      req.end();
    };
    send().catch(reject);
  });
}

describe.skipIf(!canMount)('the node on a full disk', () => {
  it('refuses an upload larger than the free space with 507 before storing a byte, and stays healthy', async () => {
    const t = await nodeOnSmallDisk(16);
    const target = await t.call('POST', '/uploads', { fileName: 'big.blend', fileType: 'blend' });
    const put = await fetch(target.json.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(20 * MiB) },
      body: Buffer.alloc(20 * MiB),
    }).catch(() => null);
    expect(put?.status).toBe(507);
    const body = (await put!.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('insufficient_storage');
    expect(body.error.message).toMatch(/disk/);
    expect(openapi.problems({ method: 'PUT', path: new URL(target.json.uploadUrl).pathname, status: 507, contentType: put!.headers.get('content-type'), body })).toEqual([]);
    expect((await readdir(join(t.dataDir, 'uploads'))).filter((n) => n.startsWith('.part-'))).toEqual([]);
    await healthy(t);
    expect(await uploadBytes(t, 'small.blend', blendBytes(4096))).toMatch(/^u-/);
  });

  it('answers 507, not 400 upload_incomplete, when the disk fills up during an upload', async () => {
    const t = await nodeOnSmallDisk(32);
    const target = await t.call('POST', '/uploads', { fileName: 'grows.blend', fileType: 'blend' });
    const answer = await putFillingTheDisk(t, target.json.uploadUrl, 8 * MiB);
    expect(answer.status).toBe(507);
    expect(answer.body.error).toMatchObject({ code: 'insufficient_storage' });
    expect(answer.body.error.message).toMatch(/disk filled up/);
    expect(openapi.problems({ method: 'PUT', path: new URL(target.json.uploadUrl).pathname, ...answer })).toEqual([]);
    expect((await readdir(join(t.dataDir, 'uploads'))).filter((n) => n.startsWith('.part-'))).toEqual([]);
    await disk.unfill();
    await healthy(t);
  });

  it("the upload client says it is the server's disk, once, without sending the file again", async () => {
    const t = await nodeOnSmallDisk(16);
    const file = join(t.dataDir, '..', 'scene.blend');
    await writeFile(file, blendBytes(2 * MiB));
    await disk.fill(256 * 1024);
    const target = (await t.call('POST', '/uploads', { fileName: 'scene.blend', fileType: 'blend' })).json;
    const failure = await uploadFile({ filePath: file, size: 2 * MiB, fileType: 'blend', target, sleep: async () => {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransferError);
    expect(failure).toMatchObject({ status: 507, code: 'server-disk-full' });
    expect((failure as Error).message).toMatch(/server ran out of disk space/);
    expect((failure as Error).message).not.toMatch(/submit (the file )?again/i);
    expect(t.logs().match(/"method":"PUT"[^\n]*"statusCode":507/g)).toHaveLength(1);
  });

  it('a render whose frames would not fit is refused with 507 and the job stays validated', async () => {
    const t = await nodeOnSmallDisk(16);
    const slug = await uploadBytes(t, 'exr.blend', blendBytes(4096));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    const analysis = sampleAnalysis({ resolution: [2048, 2048], outputFormat: 'OPEN_EXR', outputSettings: { colorMode: 'RGBA', colorDepth: '32', exrCodec: 'NONE', tiffCodec: null, compression: null, quality: null } });
    putJobInStatus(t.node.ctx, job.id, 'validated', { analysis, analysisId: crypto.randomUUID(), totalFrames: 3 });
    const res = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['1-2'] } });
    expect(res.status).toBe(507);
    expect(res.json.error.message).toMatch(/Not enough disk space .* 2 frames/);
    expect((await t.call('GET', `/jobs/${job.id}`)).json.data.status).toBe('validated');
    const small = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', frameRanges: ['1'], resolution: [64, 36] } });
    expect(small.status).toBe(200);
  });

  it('started on a full disk, a node with room for its records runs fully: requests that need space get 507, never 500', async () => {
    disk = scratch.mount(16);
    const data = join(disk.dir, 'data');
    const { key } = await servedApi(data, 'full');
    const first = await startServeProcess(['--port', '0', '--data', data]);
    first.child.kill('SIGTERM');
    await new Promise((r) => first.child.once('exit', r));
    await disk.fill(0);

    const served = await startServeProcess(['--port', '0', '--data', data]);
    try {
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${served.url}/api/external/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
      expect((await call('GET', '/jobs')).status).toBe(200);
      const upload = await call('POST', '/uploads', { fileName: 'a.blend', fileType: 'blend' });
      expect([201, 507]).toContain(upload.status);
      if (upload.status === 201) {
        const { uploadUrl } = (await upload.json()) as { uploadUrl: string };
        const put = await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: blendBytes(64 * 1024) });
        expect(put.status).toBe(507);
      }
      expect(served.child.exitCode).toBeNull();
    } finally {
      served.child.kill('SIGTERM');
      await new Promise((r) => served.child.once('exit', r));
    }
  });

  it('started on a disk too full to record anything, a node refuses with one clear line and does not listen', async () => {
    disk = scratch.mount(8);
    await disk.fill(0);
    const result = await runCli(['node', 'serve', '--port', '0', '--data', join(disk.dir, 'data')], { timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/listening on/);
    const lines = result.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('{'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/disk .* is full .* did not start/);
  });
});
