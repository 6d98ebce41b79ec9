import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli, startServeProcess } from '../helpers/cli';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import { mountSmallDisk, requireSmallDisk, type SmallDisk } from '../helpers/small-disk';
import { probeBlender, type BlenderInfo } from '../../src/render-node/blender/probe';
import { checkImageFile } from '../../src/render-node/frames/image-check';

const blenderPath = requireBlender();
const canMount = requireSmallDisk();
const MiB = 1024 * 1024;
const ENDED = ['completed', 'failed', 'canceled'];

let disk: SmallDisk | null = null;
let node: TestNode | null = null;
afterEach(async () => {
  await node?.stop();
  node = null;
  disk?.unmount();
  disk = null;
});

let blender: BlenderInfo | null = null;
let sceneBytes: Buffer | null = null;
async function fixtures(frames: number): Promise<{ blender: BlenderInfo; scene: Buffer }> {
  blender ??= await probeBlender(blenderPath!, { timeoutMs: 60_000 });
  const work = await mkdtemp(join(tmpdir(), 'rd-disk-full-'));
  sceneBytes = await readFile(await makeSampleScene(work, { frames }));
  return { blender, scene: sceneBytes };
}

async function renderJob(t: TestNode, scene: Buffer, config: Record<string, unknown>): Promise<string> {
  const slug = await uploadBytes(t, 'shot.blend', scene);
  const job = (await t.call('POST', '/jobs', { slug })).json;
  await t.call('POST', `/jobs/${job.id}/validate`);
  const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
  expect(validated.status, JSON.stringify(validated.failedReason)).toBe('validated');
  const started = await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', ...config } });
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  return job.id;
}

/** Every frame file left in a job's folder is whole, and there are exactly `count` of them. */
async function wholeFrames(t: TestNode, jobId: string, count: number): Promise<void> {
  const dir = join(t.dataDir, 'jobs', jobId, 'frames');
  const files = (await readdir(dir)).filter((n) => !n.startsWith('.'));
  expect(files).toHaveLength(count);
  for (const f of files) expect(await checkImageFile(join(dir, f)), f).toMatchObject({ status: 'complete' });
}

async function stillServes(t: TestNode, scene: Buffer): Promise<void> {
  expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  const id = await renderJob(t, scene, { frameRanges: ['1'] });
  const done = await waitForJob(t, id, (j) => ENDED.includes(j.status));
  expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
}

describe.skipIf(!blenderPath || !canMount)('renders on a full disk (real Blender)', () => {
  it('a frame cut short by the full disk is not counted; the job fails naming disk space; the node renders on', async () => {
    const { blender, scene } = await fixtures(12);
    disk = mountSmallDisk(160);
    node = await startTestNode({ blender, dataDir: join(disk.dir, 'data'), headroomBytes: 2 * MiB, reserveBytes: MiB });
    const id = await renderJob(node, scene, {
      resolution: [1024, 1024],
      sampleCount: 1,
      outputFormat: 'OPEN_EXR',
      outputSettings: { exrCodec: 'ZIP', colorDepth: '32' },
    });
    await waitForJob(node, id, (j) => j.progress.completedFrames >= 1 || ENDED.includes(j.status));
    await disk.fill(256 * 1024);
    const failed = await waitForJob(node, id, (j) => ENDED.includes(j.status));
    expect(failed.status).toBe('failed');
    expect(failed.failedReason).toMatchObject({ name: 'DiskFull', type: 'disk' });
    expect(failed.failedReason.message).toMatch(/ran out of disk space: frame \d+ could not be written completely/);
    expect(failed.progress.completedFrames).toBeLessThan(12);
    await wholeFrames(node, id, failed.progress.completedFrames);
    await disk.unfill();
    await stillServes(node, scene);
  });

  it('the database filling up while a frame is recorded fails that job, not the node', async () => {
    const { blender, scene } = await fixtures(12);
    disk = mountSmallDisk(24);
    const data = join(disk.dir, 'data');
    await mkdir(join(data, 'jobs'), { recursive: true });
    disk.mountInside('data/jobs', 96);
    node = await startTestNode({ blender, dataDir: data, headroomBytes: MiB, reserveBytes: MiB });
    const id = await renderJob(node, scene, { resolution: [256, 256], sampleCount: 16, frameRanges: ['1-12'] });
    await waitForJob(node, id, (j) => j.status !== 'booting');
    await disk.fill(0);
    const failed = await waitForJob(node, id, (j) => ENDED.includes(j.status));
    expect(failed.status).toBe('failed');
    expect(failed.failedReason).toMatchObject({ name: 'DiskFull', type: 'disk' });
    expect(failed.failedReason.message).toMatch(/progress could not be recorded/);
    expect((await fetch(`${node.url}/healthz`)).status).toBe(200);
    await disk.unfill();
    await stillServes(node, scene);
  });

  it('a render left rendering by a kill on a full disk does not stay stuck when the node starts again', async () => {
    const { scene } = await fixtures(8);
    disk = mountSmallDisk(64);
    const data = join(disk.dir, 'data');
    const created = await runCli(['node', 'keys', 'create', '--data', data, '--name', 'stuck']);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim().split('\n').pop()!;
    const api = (url: string, method: string, path: string, body?: unknown) =>
      fetch(`${url}/api/external/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then((r) => r.json() as Promise<any>);
    const until = async (url: string, path: string, ok: (v: any) => boolean) => {
      for (const deadline = Date.now() + 120_000; ; ) {
        const v = await api(url, 'GET', path);
        if (ok(v)) return v;
        if (Date.now() > deadline) throw new Error(`timed out; last ${JSON.stringify(v)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    const first = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!]);
    const target = await api(first.url, 'POST', '/uploads', { fileName: 'stuck.blend', fileType: 'blend' });
    expect((await fetch(target.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: scene })).status).toBe(200);
    const job = await api(first.url, 'POST', '/jobs', { slug: target.slug });
    await api(first.url, 'POST', `/jobs/${job.id}/validate`);
    await until(first.url, `/jobs/${job.id}`, (j) => j.data.status === 'validated');
    await api(first.url, 'POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', sampleCount: 24 } });
    await until(first.url, `/jobs/${job.id}/progress`, (p) => p.completedFrames >= 2);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    await disk.fill(0);

    const second = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!]);
    try {
      const ended = await until(second.url, `/jobs/${job.id}`, (j) => ENDED.includes(j.data.status));
      expect(ended.data.status).toBe('failed');
      expect(ended.data.failedReason).toMatchObject({ name: 'DiskFull', type: 'disk' });
      expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
      expect(second.child.exitCode).toBeNull();
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
  });
});
