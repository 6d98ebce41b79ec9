import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { startServeProcess } from '../helpers/cli';
import { servedApi, until } from '../helpers/served-node';

const blenderPath = requireBlender();

describe.skipIf(!blenderPath)('kill -9 during a render leaves no files behind', () => {
  it('the render scratch folder and Blender temp folders live in the data folder, and the next start empties it', async () => {
    const work = await mkdtemp(join(tmpdir(), 'rd-leftovers-'));
    const data = join(work, 'data');
    const systemTemp = join(work, 'system-tmp');
    await mkdir(systemTemp);
    const env = { TMPDIR: systemTemp, TEMP: systemTemp, TMP: systemTemp };
    const scene = await makeSampleScene(work, { frames: 30 });
    const { api } = await servedApi(data, 'leftovers');

    const first = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!], env);
    const target = await api(first.url, 'POST', '/uploads', { fileName: 'left.blend', fileType: 'blend' });
    await fetch(target.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: await readFile(scene) });
    const job = await api(first.url, 'POST', '/jobs', { slug: target.slug });
    await api(first.url, 'POST', `/jobs/${job.id}/validate`);
    await until(() => api(first.url, 'GET', `/jobs/${job.id}`), (j) => j.data.status === 'validated');
    await api(first.url, 'POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default', sampleCount: 16 } });
    await until(() => api(first.url, 'GET', `/jobs/${job.id}/progress`), (p) => p.completedFrames >= 1);
    const scratch = await readdir(join(data, 'tmp'));
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    expect(scratch.some((n) => n.startsWith('renderdrop-render-')), scratch.join(', ')).toBe(true);
    expect(scratch.some((n) => n.startsWith('blender_')), scratch.join(', ')).toBe(true);
    const ours = async () => (await readdir(systemTemp)).filter((n) => n.startsWith('renderdrop-') || n.startsWith('blender_'));
    expect(await ours()).toEqual([]);

    const second = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!], env);
    try {
      const left = await readdir(join(data, 'tmp'));
      for (const name of scratch) expect(left, `${name} survived the restart`).not.toContain(name);
      const done = await until(() => api(second.url, 'GET', `/jobs/${job.id}`), (j) => ['completed', 'failed', 'canceled'].includes(j.data.status));
      expect(done.data.status, JSON.stringify(done.data.failedReason)).toBe('completed');
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
    expect(await ours()).toEqual([]);
    await rm(work, { recursive: true, force: true });
  });
});
