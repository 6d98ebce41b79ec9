import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { startTestNode, waitForJob, type TestNode } from '../helpers/node';
import { decodePng } from '../helpers/png-pixels';
import { EXIT } from '../../src/cli/exit-codes';
import { spreadOrder } from '../../src/shared/render/spread-order';
import { cliSetup, filesUnder, jobsOfFile, parseSubmissions } from './helpers/cli-setup';

const blenderPath = requireBlender();
const json = (stdout: string) => JSON.parse(stdout.slice(stdout.indexOf('{')));

describe.skipIf(!blenderPath)('renderdrop verify against a real render node', () => {
  let t: TestNode;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-verify-'));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('finds deleted and emptied frames, and --fix renders exactly those into the folder, equal pixel for pixel', async () => {
    const cli = await cliSetup(t.url, t.key);
    const scene = await makeSampleScene(work, { frames: 6, name: 'verify-shot.blend' });
    const out = join(work, 'out');
    const submitted = await runCli(['submit', scene, '--yes', '--samples', '2', '--download', out, '--json'], { env: cli.env, timeoutMs: 180_000 });
    expect(submitted.code, submitted.stderr).toBe(EXIT.ok);
    const [result] = parseSubmissions(submitted.stdout);
    const folder: string = result.downloadedTo;
    const names = Array.from({ length: 6 }, (_, i) => `sample_000${i + 1}.png`);
    expect(await filesUnder(folder)).toEqual(names);
    const originals = new Map(await Promise.all(names.map(async (n) => [n, await readFile(join(folder, n))] as const)));

    const clean = await runCli(['verify', result.jobId, '--json'], { env: cli.env });
    expect(clean.code, clean.stderr).toBe(EXIT.ok);
    expect(json(clean.stdout)).toMatchObject({ folder, expected: 6, present: 6, missing: [], broken: [], complete: true });

    await rm(join(folder, names[1]!));
    await rm(join(folder, names[4]!));
    await truncate(join(folder, names[2]!), 0);
    await writeFile(join(folder, names[5]!), originals.get(names[5]!)!.subarray(0, 120));

    const found = await runCli(['verify', result.jobId.slice(0, 8)], { env: cli.env });
    expect(found.code, found.stderr).toBe(EXIT.framesMissing);
    expect(found.stdout).toContain('2 of 6 frames are there and whole.');
    expect(found.stdout).toContain('Missing: 2 frames (2, 5).');
    expect(found.stdout).toContain('Unusable: frame 3 (sample_0003.png): the file is empty.');
    expect(found.stdout).toMatch(/Unusable: frame 6 \(sample_0006\.png\): /);
    expect(found.stdout).toContain(`renderdrop verify ${result.jobId} --fix`);
    expect(found.stdout).toContain('The server still has frames 2-3, 5-6: downloading the job again fetches them without rendering.');

    const fixed = await runCli(['verify', result.jobId, '--fix', '--json'], { env: cli.env, timeoutMs: 180_000 });
    expect(fixed.code, fixed.stderr).toBe(EXIT.ok);
    const report = json(fixed.stdout);
    expect(report).toMatchObject({ folder, expected: 6, present: 6, missing: [], broken: [], complete: true, fix: { frames: [2, 3, 5, 6], state: 'downloaded' } });
    expect(report.before).toMatchObject({ present: 2, missing: [2, 5], downloadable: [2, 3, 5, 6] });
    expect(report.before.broken.map((b: any) => b.frame)).toEqual([3, 6]);
    expect(fixed.stderr).toContain('Rendering frames 2-3, 5-6 of verify-shot.blend again into');

    expect(await filesUnder(folder)).toEqual(names);
    for (const name of names) {
      const now = await readFile(join(folder, name));
      const before = originals.get(name)!;
      const a = decodePng(now);
      const b = decodePng(before);
      expect([a.width, a.height, a.channels]).toEqual([b.width, b.height, b.channels]);
      expect(a.data.equals(b.data), `${name} pixels`).toBe(true);
    }

    const jobs = await jobsOfFile(t, 'verify-shot.blend');
    expect(jobs).toHaveLength(2);
    const again = jobs.find((j) => j.id !== result.jobId);
    expect(again.requestedConfig.frameRanges).toEqual(['2-3,5-6']);
    expect(again.requestedConfig.sampleCount).toBe(2);
    const records = await cli.journal();
    expect(records.at(-1)).toMatchObject({ jobId: again.id, step: 'downloaded', downloadedTo: folder });
  });

  it('says why it cannot fix a folder whose scene file is gone, and --dir checks another folder', async () => {
    const cli = await cliSetup(t.url, t.key);
    const dir = await mkdtemp(join(work, 'gone-'));
    const scene = await makeSampleScene(work, { frames: 2, name: 'gone.blend' });
    const copy = join(dir, 'gone.blend');
    await writeFile(copy, await readFile(scene));
    const submitted = await runCli(['submit', copy, '--yes', '--samples', '2', '--download', join(dir, 'out'), '--json'], { env: cli.env, timeoutMs: 180_000 });
    expect(submitted.code, submitted.stderr).toBe(EXIT.ok);
    const [result] = parseSubmissions(submitted.stdout);
    await rm(copy);
    const empty = join(dir, 'elsewhere');
    const checked = await runCli(['verify', result.jobId, '--dir', empty, '--json'], { env: cli.env });
    expect(checked.code).toBe(EXIT.framesMissing);
    expect(json(checked.stdout)).toMatchObject({ folder: empty, expected: 2, present: 0, missing: [1, 2], complete: false });
    const refused = await runCli(['verify', result.jobId, '--dir', empty, '--fix'], { env: cli.env });
    expect(refused.code).toBe(EXIT.failure);
    expect(refused.stderr).toContain('The scene file gone.blend is no longer where it was sent from');
    expect(refused.stderr).toContain('Frames to render: 1-2.');
    expect((await jobsOfFile(t, 'gone.blend')).length).toBe(1);
  });

  it('download gets the frames a failed job rendered and says it failed and how many it got', async () => {
    const cli = await cliSetup(t.url, t.key);
    const scene = await makeSampleScene(work, { frames: 40, name: 'cut-short.blend' });
    const submitted = await runCli(['submit', scene, '--yes', '--samples', '16', '--json'], { env: cli.env, timeoutMs: 180_000 });
    expect(submitted.code, submitted.stderr).toBe(EXIT.ok);
    const [result] = parseSubmissions(submitted.stdout);
    await waitForJob(t, result.jobId, (j) => j.progress.completedFrames >= 2);
    let killed = 0;
    for (const entry of await readdir('/proc')) {
      const cmd = /^\d+$/.test(entry) ? await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '') : '';
      if (cmd.includes('blender') && cmd.includes(join(t.dataDir, 'jobs', result.jobId))) {
        process.kill(Number(entry), 'SIGKILL');
        killed++;
      }
    }
    expect(killed).toBeGreaterThanOrEqual(1);
    const failed = await waitForJob(t, result.jobId, (j) => j.status === 'failed');
    const rendered: number = failed.progress.completedFrames;
    const out = join(work, 'partial');
    const downloaded = await runCli(['download', result.jobId, '--dir', out], { env: cli.env });
    expect(downloaded.code, downloaded.stderr).toBe(EXIT.ok);
    expect(downloaded.stdout).toContain(`Job ${result.jobId} failed after rendering ${rendered} of 40 frames; these are the frames it rendered before it stopped.`);
    expect(downloaded.stdout).not.toContain('Wait until');
    const folder = join(out, `cut-short-${result.jobId.replace(/-/g, '').slice(0, 8)}`);
    // The frames render spread across the shot: the first `rendered` of that order are the ones on disk.
    const renderedFrames = spreadOrder(Array.from({ length: 40 }, (_, i) => i + 1)).slice(0, rendered).sort((a, b) => a - b);
    expect(await filesUnder(folder)).toEqual(renderedFrames.map((f) => `sample_${String(f).padStart(4, '0')}.png`));
    const checked = await runCli(['verify', result.jobId, '--dir', folder, '--json'], { env: cli.env });
    expect(checked.code).toBe(EXIT.framesMissing);
    expect(json(checked.stdout)).toMatchObject({ expected: 40, present: rendered, broken: [], complete: false });
  });
});
