import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSampleScene, requireBlender } from '../../helpers/blender';
import { startServeProcess } from '../../helpers/cli';
import { servedApi, until, type ServedApi } from '../../helpers/served-node';
import { diskUsage, watchPeaks } from '../../helpers/process-peaks';
import { GIB, MIB, writeGzipBomb, writeUnderstatedZstd, writeZstdWithoutTable } from '../../blend/helpers/blend-bombs';

const blenderPath = requireBlender();
const MAX_RSS = 300 * MIB;
const MAX_TEMP_DISK = 100 * MIB;
const BOMBS = ['understated-1g.blend', 'understated-3g.blend', 'no-table-4g.blend', 'gzip-4g.blend'];

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'rd-validation-bombs-'));
  await writeUnderstatedZstd(join(work, BOMBS[0]!), 1 * GIB, 64 * 1024);
  await writeUnderstatedZstd(join(work, BOMBS[1]!), 3 * GIB, 64 * 1024);
  await writeZstdWithoutTable(join(work, BOMBS[2]!), 4);
  await writeGzipBomb(join(work, BOMBS[3]!), 4);
}, 120_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Upload `bytes` as `name`, create a job and ask for its validation; the job's id. */
async function submit(api: ServedApi, url: string, name: string, bytes: Buffer): Promise<string> {
  const target = await api(url, 'POST', '/uploads', { fileName: name, fileType: 'blend' });
  const put = await fetch(target.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
  expect(put.status).toBe(200);
  const job = await api(url, 'POST', '/jobs', { slug: target.slug });
  await api(url, 'POST', `/jobs/${job.id}/validate`);
  return job.id;
}

/** A job as the API shows it, as far as these tests read it. */
type JobBody = { data: { status: string; failedReason: { name: string; type: string; message: string } | null } };

const settled = (j: JobBody) => ['validated', 'failed', 'canceled'].includes(j.data.status);

describe.skipIf(!blenderPath)("the node's validation of compressed .blend files that unpack to far more than they say", () => {
  it('fails each in one line, in bounded memory and disk, and keeps serving', async () => {
    const data = join(work, 'data');
    const { api } = await servedApi(data, 'bombs');
    const node = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!]);
    const dirs = ['uploads', 'tmp', 'jobs'].map((d) => join(data, d));
    const watch = watchPeaks(node.child.pid!, async () => {
      const used = await diskUsage(dirs);
      return (used.get(dirs[1]!) ?? 0) + (used.get(dirs[2]!) ?? 0);
    });
    try {
      for (const name of BOMBS) {
        const id = await submit(api, node.url, name, await readFile(join(work, name)));
        const job = await until(() => api(node.url, 'GET', `/jobs/${id}`), settled, 60_000);
        expect(job.data.status, name).toBe('failed');
        const message: string = job.data.failedReason!.message;
        expect(message.split('\n'), message).toHaveLength(1);
        expect(message).toContain(name);
        expect(message).not.toContain(data);
      }
      const peaks = await watch.stop();
      expect(peaks.rssBytes, `peak RSS ${(peaks.rssBytes / MIB).toFixed(0)} MiB`).toBeLessThan(MAX_RSS);
      expect(peaks.diskBytes, `peak disk ${(peaks.diskBytes / MIB).toFixed(1)} MiB`).toBeLessThan(MAX_TEMP_DISK);

      const sample = await readFile(await makeSampleScene(work, { frames: 2 }));
      const id = await submit(api, node.url, 'sample.blend', sample);
      const job = await until(() => api(node.url, 'GET', `/jobs/${id}`), settled, 120_000);
      expect(job.data.status, JSON.stringify(job.data.failedReason)).toBe('validated');
    } finally {
      await watch.stop();
      node.child.kill('SIGTERM');
      await new Promise((r) => node.child.once('exit', r));
    }
  }, 240_000);

  it('fails, on restart, a validation the node died during, instead of running it again', async () => {
    const data = join(work, 'data-restart');
    const { api } = await servedApi(data, 'restart');
    const sample = await readFile(await makeSampleScene(work, { frames: 2 }));
    // A scene the .blend reader leaves to Blender (sounds, volumes), so that its validation lasts long enough to be killed.
    const slow = await readFile(await makeSampleScene(work, { frames: 2, extraDependencies: true }));
    const first = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!]);
    const id = await submit(api, first.url, 'killer.blend', slow);
    await until(async () => existsSync(join(data, 'jobs', id, 'validation-running')), Boolean, 60_000);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!]);
    try {
      const job = await until(() => api(second.url, 'GET', `/jobs/${id}`), settled, 60_000);
      expect(job.data.status).toBe('failed');
      expect(job.data.failedReason).toMatchObject({ name: 'ValidationInterrupted', type: 'scene' });
      expect(job.data.failedReason!.message).toMatch(/^Validation stopped when the render node restarted; .*Submit it again/);
      const next = await submit(api, second.url, 'again.blend', sample);
      const again = await until(() => api(second.url, 'GET', `/jobs/${next}`), settled, 120_000);
      expect(again.data.status, JSON.stringify(again.data.failedReason)).toBe('validated');
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
  }, 240_000);
});
