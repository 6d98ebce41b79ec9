import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { startServeProcess } from '../helpers/cli';
import { startRenderJob, startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { servedApi, until } from '../helpers/served-node';
import { requireSmallDisk, smallDisksPerTest, type SmallDisk } from '../helpers/small-disk';
import { probeBlender, type BlenderInfo } from '../../src/render-node/blender/probe';
import { checkImageFile } from '../../src/node-common/images/image-check';

const blenderPath = requireBlender();
const canMount = requireSmallDisk();
const MiB = 1024 * 1024;
const ENDED = ['completed', 'failed', 'canceled'];

const scratch = smallDisksPerTest();
let disk: SmallDisk;

let blender: BlenderInfo | null = null;
let sceneBytes: Buffer | null = null;
async function fixtures(frames: number): Promise<{ blender: BlenderInfo; scene: Buffer }> {
  blender ??= await probeBlender(blenderPath!, { timeoutMs: 60_000 });
  const work = await mkdtemp(join(tmpdir(), 'rd-disk-full-'));
  sceneBytes = await readFile(await makeSampleScene(work, { frames }));
  return { blender, scene: sceneBytes };
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
  const id = await startRenderJob(t, 'shot.blend', scene, { frameRanges: ['1'] });
  const done = await waitForJob(t, id, (j) => ENDED.includes(j.status));
  expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
}

describe.skipIf(!blenderPath || !canMount)('renders on a full disk (real Blender)', () => {
  it('a frame cut short by the full disk is not counted; the job fails naming disk space; the node renders on', async () => {
    const { blender, scene } = await fixtures(12);
    disk = scratch.mount(160);
    const node = scratch.keep(await startTestNode({ blender, dataDir: join(disk.dir, 'data'), headroomBytes: 2 * MiB, reserveBytes: MiB }));
    const id = await startRenderJob(node, 'shot.blend', scene, {
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
    disk = scratch.mount(24);
    const data = join(disk.dir, 'data');
    await mkdir(join(data, 'jobs'), { recursive: true });
    disk.mountInside('data/jobs', 96);
    const node = scratch.keep(await startTestNode({ blender, dataDir: data, headroomBytes: MiB, reserveBytes: MiB }));
    const id = await startRenderJob(node, 'shot.blend', scene, { resolution: [256, 256], sampleCount: 64, frameRanges: ['1-12'] });
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
    disk = scratch.mount(64);
    const data = join(disk.dir, 'data');
    const { api } = await servedApi(data, 'stuck');
    const poll = (url: string, path: string, ok: (v: any) => boolean) => until(() => api(url, 'GET', path), ok);

    const first = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!]);
    const target = await api(first.url, 'POST', '/uploads', { fileName: 'stuck.blend', fileType: 'blend' });
    expect((await fetch(target.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: scene })).status).toBe(200);
    const job = await api(first.url, 'POST', '/jobs', { slug: target.slug });
    await api(first.url, 'POST', `/jobs/${job.id}/validate`);
    await poll(first.url, `/jobs/${job.id}`, (j) => j.data.status === 'validated');
    await api(first.url, 'POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', sampleCount: 24 } });
    await poll(first.url, `/jobs/${job.id}/progress`, (p) => p.completedFrames >= 2);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    await disk.fill(0);

    const second = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!]);
    try {
      const ended = await poll(second.url, `/jobs/${job.id}`, (j) => ENDED.includes(j.data.status));
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
