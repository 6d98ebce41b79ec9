import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli, startServeProcess } from '../helpers/cli';
import { until } from '../helpers/served-node';

const blenderPath = requireBlender();

async function api(url: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}/api/external/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json();
}

describe.skipIf(!blenderPath)('node restart', () => {
  it('resumes a render after kill -9 without re-rendering written frames', async () => {
    const work = await mkdtemp(join(tmpdir(), 'rd-restart-'));
    const data = join(work, 'data');
    const scene = await makeSampleScene(work, { frames: 8 });
    const created = await runCli(['node', 'keys', 'create', '--data', data, '--name', 'restart']);
    expect(created.code).toBe(0);
    const key = created.stdout.trim().split('\n').pop()!;
    expect(key).toMatch(/^RJ-/);

    const first = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!]);
    const target = await api(first.url, key, 'POST', '/uploads', { fileName: 'resume.blend', fileType: 'blend' });
    const bytes = await readFile(scene);
    const put = await fetch(target.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
    expect(put.status).toBe(200);
    const job = await api(first.url, key, 'POST', '/jobs', { slug: target.slug });
    await api(first.url, key, 'POST', `/jobs/${job.id}/validate`);
    await until(() => api(first.url, key, 'GET', `/jobs/${job.id}`), (j) => j.data.status === 'validated');
    await api(first.url, key, 'POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', sampleCount: 24 } });
    await until(() => api(first.url, key, 'GET', `/jobs/${job.id}/progress`), (p) => p.completedFrames >= 2);

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const framesDir = join(data, 'jobs', job.id, 'frames');
    const before = new Map<string, number>();
    for (const f of await readdir(framesDir)) before.set(f, (await stat(join(framesDir, f))).mtimeMs);
    expect(before.size).toBeGreaterThanOrEqual(2);

    const second = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!]);
    try {
      const done = await until(() => api(second.url, key, 'GET', `/jobs/${job.id}`), (j) => ['completed', 'failed', 'canceled'].includes(j.data.status));
      expect(done.data.status, JSON.stringify(done.data.failedReason)).toBe('completed');
      const after = await readdir(framesDir);
      expect(after.filter((f) => f.endsWith('.png'))).toHaveLength(8);
      for (const [f, mtime] of before) {
        if (!f.endsWith('.png')) continue;
        expect((await stat(join(framesDir, f))).mtimeMs, `${f} was rendered again`).toBe(mtime);
      }
      const progress = await api(second.url, key, 'GET', `/jobs/${job.id}/progress`);
      expect(progress).toEqual({ jobId: job.id, completedFrames: 8, totalFrames: 8 });
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
    expect(second.output()).toContain('shutting down');
  });
});

describe.skipIf(!blenderPath)('node stop', () => {
  it('a clean stop mid-render keeps the job rendering and the next start finishes it', async () => {
    const { startTestNode, uploadBytes, waitForJob } = await import('../helpers/node');
    const { probeBlender } = await import('../../src/render-node/blender/probe');
    const work = await mkdtemp(join(tmpdir(), 'rd-stop-'));
    const dataDir = join(work, 'data');
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    const scene = await makeSampleScene(work, { frames: 8 });
    const first = await startTestNode({ blender, dataDir });
    const slug = await uploadBytes(first, 'stop.blend', await readFile(scene));
    const job = (await first.call('POST', '/jobs', { slug })).json;
    await first.call('POST', `/jobs/${job.id}/validate`);
    await waitForJob(first, job.id, (j) => j.status === 'validated');
    await first.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', sampleCount: 24 } });
    await waitForJob(first, job.id, (j) => j.progress.completedFrames >= 1);
    await first.stop();

    const second = await startTestNode({ blender, dataDir });
    try {
      const resumed = second.node.ctx.jobs.get(job.id)!;
      expect(['booting', 'rendering']).toContain(resumed.status);
      const done = await waitForJob(second, job.id, (j) => ['completed', 'failed', 'canceled'].includes(j.status));
      expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');
      expect(done.progress).toEqual({ completedFrames: 8, totalFrames: 8 });
    } finally {
      await second.stop();
    }
  });
});

describe.skipIf(!blenderPath)('resuming over a frame cut short', () => {
  it('a frame file left incomplete by a crash is rendered again, not delivered', async () => {
    const { startTestNode, startRenderJob, waitForJob } = await import('../helpers/node');
    const { probeBlender } = await import('../../src/render-node/blender/probe');
    const { checkImageFile } = await import('../../src/node-common/images/image-check');
    const work = await mkdtemp(join(tmpdir(), 'rd-cut-'));
    const dataDir = join(work, 'data');
    const blender = await probeBlender(blenderPath!, { timeoutMs: 60_000 });
    const scene = await readFile(await makeSampleScene(work, { frames: 24 }));
    const first = await startTestNode({ blender, dataDir });
    const id = await startRenderJob(first, 'cut.blend', scene, { sampleCount: 24 });
    await waitForJob(first, id, (j) => j.progress.completedFrames >= 1);
    await first.stop();
    const framesDir = join(dataDir, 'jobs', id, 'frames');
    const written = (await readdir(framesDir)).filter((f) => f.endsWith('.png')).sort();
    // The frame rendered last (frames render across the shot first), not rendered yet when the node
    // stopped, is left half written as by a crash.
    const { sceneFrames, spreadOrder } = await import('../../src/shared/render');
    const lastName = `sample_${String(spreadOrder(sceneFrames(1, 24, 1)).at(-1)).padStart(4, '0')}.png`;
    expect(written, 'the node stopped before the frame rendered last').not.toContain(lastName);
    const whole = await readFile(join(framesDir, written[0]!));
    await writeFile(join(framesDir, lastName), whole.subarray(0, Math.floor(whole.length / 2)));

    const second = await startTestNode({ blender, dataDir });
    try {
      const done = await waitForJob(second, id, (j) => ['completed', 'failed', 'canceled'].includes(j.status));
      expect(done.status, `${JSON.stringify(done.failedReason)}\n${second.logs().slice(-4000)}`).toBe('completed');
      for (const f of (await readdir(framesDir)).filter((n) => n.endsWith('.png'))) {
        expect(await checkImageFile(join(framesDir, f)), f).toMatchObject({ status: 'complete' });
      }
      expect(done.progress).toEqual({ completedFrames: 24, totalFrames: 24 });
    } finally {
      await second.stop();
    }
  });
});
