import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { startTestNode, type TestNode } from '../helpers/node';
import { cliSetup, filesUnder, jobsOfFile, parseSubmissions } from './helpers/cli-setup';
import { spawnCli, until } from './helpers/spawn-cli';
import { startThrottleProxy, type ThrottleProxy } from './helpers/throttle-proxy';

const blenderPath = requireBlender();
const MiB = 1024 * 1024;

/** A zip holding the sample scene at its top and a large incompressible file beside it. */
async function bundle(dir: string, name: string, scene: string): Promise<string> {
  const zip = new yazl.ZipFile();
  zip.addFile(scene, 'scene.blend', { compress: false });
  zip.addBuffer(randomBytes(6 * MiB), 'cache/noise.bin', { compress: false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const path = join(dir, name);
  await writeFile(path, Buffer.concat(chunks));
  return path;
}

describe.skipIf(!blenderPath)('renderdrop recovers from interruptions against a real render node', () => {
  let t: TestNode;
  let proxy: ThrottleProxy;
  let work: string;
  let sample: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-recovery-'));
    sample = await makeSampleScene(work, {});
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
    proxy = await startThrottleProxy(t.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.stop();
  });

  /** Checks a finished download: the frames named, nothing partial, and one job for the file. */
  async function expectDelivered(result: any, fileName: string, frames: string[]) {
    expect(result).toMatchObject({ fileName, state: 'downloaded', jobStatus: 'completed', error: null });
    expect(await filesUnder(result.downloadedTo)).toEqual(frames);
    const jobs = await jobsOfFile(t, fileName);
    expect(jobs.map((j) => j.id)).toEqual([result.jobId]);
  }

  it('Ctrl-C during an upload exits 130, keeps the submission, and resume finishes it', async () => {
    const cli = await cliSetup(proxy.url, t.key);
    const file = await bundle(work, 'bundle-a.zip', sample);
    const out = join(work, 'out-a');
    proxy.setUploadRate(1.5 * MiB);
    const start = proxy.uploadedBytes();
    const submit = spawnCli(['submit', file, '--yes', '--download', out], cli.env);
    await until('the upload to be under way', () => proxy.uploadedBytes() - start > MiB);
    submit.child.kill('SIGINT');
    const stopped = await submit.exited;
    proxy.setUploadRate(null);
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stdout + stopped.stderr).toContain('renderdrop resume');
    const [record] = await cli.journal();
    expect(record).toMatchObject({ step: 'upload-target', ending: null, jobId: null, download: { wanted: true, root: out } });
    expect(await jobsOfFile(t, 'bundle-a.zip')).toEqual([]);

    const resumed = await runCli(['resume', '--yes', '--json'], { env: cli.env, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const [result] = parseSubmissions(resumed.stdout);
    await expectDelivered(result, 'bundle-a.zip', ['bundle-a_0001.png', 'bundle-a_0002.png', 'bundle-a_0003.png'].map((f) => f.replace('bundle-a', 'sample')));
    expect(result.downloadedTo.startsWith(join(out, 'bundle-a-'))).toBe(true);
    expect(await cli.journal()).toHaveLength(1);
  });

  it('killed mid-upload, the same submit with --yes continues the submission instead of starting another', async () => {
    const cli = await cliSetup(proxy.url, t.key);
    const file = await bundle(work, 'bundle-b.zip', sample);
    const out = join(work, 'out-b');
    proxy.setUploadRate(1.5 * MiB);
    const start = proxy.uploadedBytes();
    const submit = spawnCli(['submit', file, '--yes', '--download', out], cli.env);
    await until('the upload to be under way', () => proxy.uploadedBytes() - start > MiB);
    submit.child.kill('SIGKILL');
    expect((await submit.exited).signal).toBe('SIGKILL');
    proxy.setUploadRate(null);
    const [record] = await cli.journal();
    expect(record).toMatchObject({ step: 'upload-target', ending: null });

    const again = await runCli(['submit', file, '--yes', '--download', out, '--json'], { env: cli.env, timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('continuing the earlier submission (not uploaded yet');
    const [result] = parseSubmissions(again.stdout);
    expect(result.submissionId).toBe(record!.id);
    await expectDelivered(result, 'bundle-b.zip', ['sample_0001.png', 'sample_0002.png', 'sample_0003.png']);
    expect(await cli.journal()).toHaveLength(1);
  });

  it('killed mid-render, resume follows the same job to the end and downloads every frame', async () => {
    const cli = await cliSetup(t.url, t.key);
    const slow = await makeSampleScene(join(work, 'slow'), { frames: 30, name: 'slow.blend' });
    const out = join(work, 'out-c');
    const submit = spawnCli(['submit', slow, '--yes', '--samples', '16', '--percentage', '200', '--download', out], cli.env);
    const jobId = await until('the first frames', async () => {
      const jobIdNow = (await cli.journal())[0]?.jobId;
      if (!jobIdNow) return null;
      const progress = await t.call('GET', `/jobs/${jobIdNow}/progress`);
      return progress.json.completedFrames >= 1 ? jobIdNow : null;
    });
    submit.child.kill('SIGKILL');
    await submit.exited;
    const atKill = (await t.call('GET', `/jobs/${jobId}`)).json.data;
    expect(atKill.status).toBe('rendering');
    expect((await cli.journal())[0]).toMatchObject({ step: 'render-requested', ending: null });

    const resumed = await runCli(['resume', '--yes', '--json'], { env: cli.env, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const [result] = parseSubmissions(resumed.stdout);
    expect(result.jobId).toBe(jobId);
    const frames = Array.from({ length: 30 }, (_, i) => `sample_${String(i + 1).padStart(4, '0')}.png`);
    await expectDelivered(result, 'slow.blend', frames);
  });

  it('killed mid-download, resume completes the partial files and fetches nothing twice', async () => {
    const cli = await cliSetup(proxy.url, t.key);
    const scene = join(work, 'sample-d.blend');
    await writeFile(scene, await readFile(sample));
    const out = join(work, 'out-d');
    proxy.setDownloadRate(1024);
    const submit = spawnCli(['submit', scene, '--yes', '--download', out], cli.env);
    await until('partial downloads', async () => {
      for (const file of await filesUnder(out)) if (file.endsWith('.part') && (await stat(join(out, file))).size > 0) return true;
      return false;
    });
    submit.child.kill('SIGKILL');
    await submit.exited;
    proxy.setDownloadRate(null);
    expect((await cli.journal())[0]).toMatchObject({ step: 'completed', ending: null, download: { wanted: true } });
    expect((await filesUnder(out)).some((f) => f.endsWith('.part'))).toBe(true);

    const partial = new Map<string, number>();
    for (const file of await filesUnder(out)) if (file.endsWith('.part')) partial.set(file.split('/').pop()!.slice(0, -'.part'.length), (await stat(join(out, file))).size);
    const seenBefore = proxy.requests().length;
    const resumed = await runCli(['resume', '--yes', '--json'], { env: cli.env, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const [result] = parseSubmissions(resumed.stdout);
    await expectDelivered(result, 'sample-d.blend', ['sample_0001.png', 'sample_0002.png', 'sample_0003.png']);

    const downloads = (await t.call('GET', `/jobs/${result.jobId}/downloads`)).json;
    for (const item of downloads.frameOutputs) {
      const original = Buffer.from(await (await fetch(item.url)).arrayBuffer());
      expect((await readFile(join(result.downloadedTo, item.fileName))).equals(original), item.fileName).toBe(true);
    }
    const resumedGets = proxy.requests().slice(seenBefore).filter((r) => r.method === 'GET' && r.path.startsWith('/storage/'));
    for (const [name, size] of partial) {
      const gets = resumedGets.filter((r) => decodeURIComponent(r.path).endsWith(`/${name}`));
      expect(gets.map((r) => r.range), name).toEqual(size > 0 ? [`bytes=${size}-`] : [null]);
    }
  });
});
