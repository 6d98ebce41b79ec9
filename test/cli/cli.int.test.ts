import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { blendBytes } from '../helpers/scene-files';
import { cliSetup, filesUnder, jobsOfFile, nodeJobs, parseSubmissions, type CliSetup } from './helpers/cli-setup';
import { spawnCli, until } from './helpers/spawn-cli';

const blenderPath = requireBlender();

describe.skipIf(!blenderPath)('renderdrop against a real render node', () => {
  let t: TestNode;
  let cli: CliSetup;
  let work: string;
  let sample: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-'));
    sample = await makeSampleScene(work, {});
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
    cli = await cliSetup(t.url, t.key);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('submit --yes --download uploads, shows the analysis, renders and puts every frame on disk', async () => {
    const out = join(work, 'out');
    const run = await runCli(['submit', sample, '--yes', '--download', out, '--json'], { env: cli.env, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    const [result] = parseSubmissions(run.stdout);
    expect(result).toMatchObject({ fileName: 'sample.blend', state: 'downloaded', jobStatus: 'completed', downloadedFiles: 3, error: null });
    expect(result.downloadedTo).toBe(join(out, `sample-${result.jobId.replace(/-/g, '').slice(0, 8)}`));
    expect(await filesUnder(result.downloadedTo)).toEqual(['sample_0001.png', 'sample_0002.png', 'sample_0003.png']);
    const png = await readFile(join(result.downloadedTo, 'sample_0001.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');

    expect(run.stderr).toMatch(/Engine +Cycles/);
    expect(run.stderr).toMatch(/Frames +1-3 \(3 frames\)/);
    expect(run.stderr).toMatch(/Resolution +64 × 36 at 100%/);
    expect(run.stderr).toMatch(/Samples +4/);
    expect(run.stderr).toMatch(/Camera +Camera/);
    expect(run.stderr).toMatch(/Output +PNG/);
    expect(run.stderr).toMatch(/Blender +saved with 3\.\d/);
    const missing = join(work, 'textures', 'missing-albedo.png');
    expect(run.stderr).toContain(`sample.blend: 1 file it uses is missing; the farm renders without it:\n  ${missing} (image "missing-albedo.png": not on this computer)`);
    expect(run.stderr).toContain(`! Missing image "missing-albedo.png": ${missing}. The farm renders without it.`);
    expect(run.stdout + run.stderr).not.toContain(t.key);

    const [record] = await cli.journal();
    expect(record).toMatchObject({ step: 'downloaded', ending: null, jobId: result.jobId, downloadedTo: result.downloadedTo });
    expect(await jobsOfFile(t, 'sample.blend')).toHaveLength(1);

    const jobs = await runCli(['jobs', '--json'], { env: cli.env });
    expect(jobs.code).toBe(0);
    const list = JSON.parse(jobs.stdout);
    expect(list.pagination).toMatchObject({ page: 1, total: 1 });
    expect(list.jobs[0]).toMatchObject({ id: result.jobId, status: 'completed' });

    const status = await runCli(['status', result.jobId, '--json'], { env: cli.env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ job: { id: result.jobId, status: 'completed' }, progress: { completedFrames: 3, totalFrames: 3 } });

    const human = await runCli(['status', result.jobId.slice(0, 8)], { env: cli.env });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`Job +${result.jobId}`));
    expect(human.stdout).toMatch(/Status +completed .*3\/3 frames/);

    const again = join(work, 'again');
    const first = await runCli(['download', result.jobId, '--dir', again, '--json'], { env: cli.env });
    expect(first.code, first.stderr).toBe(0);
    const fetched = JSON.parse(first.stdout);
    expect(fetched.files.map((f: any) => [f.relativePath, f.skipped])).toEqual([
      ['sample_0001.png', false],
      ['sample_0002.png', false],
      ['sample_0003.png', false],
    ]);
    const second = await runCli(['download', result.jobId, '--dir', again], { env: cli.env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('(3 already there)');
  });

  it('refuses to render without a terminal or --yes, and bad options, before sending anything', async () => {
    const before = (await nodeJobs(t)).length;
    const noYes = await runCli(['submit', sample], { env: cli.env });
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('Add --yes');
    const badFrames = await runCli(['submit', sample, '--yes', '--frames', '9-1'], { env: cli.env });
    expect(badFrames.code).toBe(2);
    expect(badFrames.stderr).toContain('ends before it starts');
    const badPreset = await runCli(['submit', sample, '--yes', '--preset', 'filmic'], { env: cli.env });
    expect(badPreset.code).toBe(2);
    expect((await nodeJobs(t)).length).toBe(before);
  });

  it('reports a file that fails its checks and goes on with the others', async () => {
    const text = join(work, 'notes.txt');
    const fake = join(work, 'fake.blend');
    await writeFile(text, 'hello');
    await writeFile(fake, 'not a blender file at all');
    const copy = join(work, 'other.blend');
    await writeFile(copy, await readFile(sample));
    const run = await runCli(['submit', text, fake, copy, '--yes', '--json', '--frames', '1'], { env: cli.env, timeoutMs: 120_000 });
    expect(run.code).toBe(1);
    const results = parseSubmissions(run.stdout);
    expect(results.map((r: any) => [r.fileName, r.state])).toEqual([
      ['notes.txt', 'error'],
      ['fake.blend', 'error'],
      ['other.blend', 'rendering'],
    ]);
    expect(results[0].error.message).toContain('is not a .blend or .zip file');
    expect(results[1].error.message).toContain('is not a Blender file');
    expect(run.stderr).toContain('renderdrop watch');
    await waitForJob(t, results[2].jobId, (job) => job.status === 'completed');
  });

  it('exits 3 when the job fails, with the reason', async () => {
    const broken = join(work, 'broken.blend');
    const bytes = blendBytes(8192);
    bytes.write('BLENDER-v304REND', 0, 'latin1');
    await writeFile(broken, bytes);
    const run = await runCli(['submit', broken, '--yes', '--wait', '--json'], { env: cli.env, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(3);
    const [result] = parseSubmissions(run.stdout);
    expect(result).toMatchObject({ state: 'failed', jobStatus: 'failed', error: { kind: 'job-failed' } });
    expect(result.error.message).toMatch(/Job .* failed: \w+ \(\w+\)/);
  });

  it('watch follows active jobs as JSON lines; cancel stops one; status shows it canceled', async () => {
    const slow = await makeSampleScene(join(work, 'slow'), { frames: 240, name: 'slow.blend' });
    const submitted = await runCli(['submit', slow, '--yes', '--json', '--samples', '16', '--percentage', '200'], { env: cli.env, timeoutMs: 120_000 });
    expect(submitted.code, submitted.stderr).toBe(0);
    const [result] = parseSubmissions(submitted.stdout);
    expect(result.state).toBe('rendering');

    const watch = spawnCli(['watch', '--json'], cli.env);
    await until('a progress line', () => /"type":"progress"/.test(watch.stdout()), 60_000);
    const cancel = await runCli(['cancel', result.jobId], { env: cli.env });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain(`Canceled job ${result.jobId}`);
    const watched = await watch.exited;
    expect(watched.code).toBe(3);
    const events = watched.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(events.some((e) => e.type === 'status' && e.jobId === result.jobId && e.status === 'canceled')).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'idle', jobs: 0 });

    const status = await runCli(['status', result.jobId, '--json'], { env: cli.env });
    expect(JSON.parse(status.stdout).job.status).toBe('canceled');
    const again = await runCli(['cancel', result.jobId], { env: cli.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already canceled');

    const resumed = await runCli(['resume', '--yes', '--json'], { env: cli.env, timeoutMs: 60_000 });
    const states = parseSubmissions(resumed.stdout).map((r: any) => [r.fileName, r.state]);
    expect(states).toContainEqual(['slow.blend', 'canceled']);
    expect(resumed.code).toBe(3);
    expect((await runCli(['resume'], { env: cli.env })).stdout).toContain('Nothing to resume');
  });

  it('explains a missing key and a server that cannot be reached', async () => {
    const noKey = await runCli(['jobs'], { env: { ...cli.env, RENDERDROP_API_KEY: '' } });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/No API key .*renderdrop login.*RENDERDROP_API_KEY/);
    const wrongKey = await runCli(['jobs'], { env: { ...cli.env, RENDERDROP_API_KEY: 'RJ-wrong' } });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('API key rejected (401');
    const down = await runCli(['status', 'abcd'], { env: { ...cli.env, RENDERDROP_BASE_URL: 'http://127.0.0.1:9' } });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Could not reach http:\/\/127\.0\.0\.1:9/);
    const unknown = await runCli(['status', '00000000-0000-4000-8000-000000000000'], { env: cli.env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/was not found/);
  });
});
