import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { EXIT } from '../../src/cli/exit-codes';
import { makeSampleScene, requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { startFarmProxy } from '../helpers/farm-proxy';
import { startTestNode, type TestNode } from '../helpers/node';
import { decodePng } from '../helpers/png-pixels';
import { cliSetup, filesUnder, jobsOfFile, parseSubmissions } from './helpers/cli-setup';

const blenderPath = requireBlender();
const FRAMES = 8;
/** About a second a frame on this machine's Blender 3.4 (the sample scene renders every sample). */
const SLOW = ['--samples', '1024', '--percentage', '200'];
const names = Array.from({ length: FRAMES }, (_, i) => `sample_${String(i + 1).padStart(4, '0')}.png`);
const json = (stdout: string) => JSON.parse(stdout.slice(stdout.indexOf('{')));
const framesCalls = (requests: string[]) => requests.filter((r) => /^GET \/api\/external\/v1\/node\/jobs\/[^/]+\/frames$/.test(r)).length;

/** What the job and its folder looked like at one moment. */
interface Look {
  /** The job's status before and after the folder was read. */
  before: string | null;
  after: string | null;
  frames: string[];
  parts: string[];
}

/**
 * Looks at the node's job made from `fileName` and at every file under `out` every 100 ms until
 * `done` settles (the job's status is read before and after the folder, so a look "while rendering"
 * is one where both say so).
 */
async function lookWhile(t: TestNode, fileName: string, out: string, done: Promise<unknown>): Promise<Look[]> {
  let settled = false;
  void done.finally(() => (settled = true));
  const looks: Look[] = [];
  const status = async () => (await jobsOfFile(t, fileName))[0]?.status ?? null;
  while (!settled) {
    const before = await status();
    const files = (await filesUnder(out)).map((f) => f.split('/').pop()!);
    const after = await status();
    looks.push({ before, after, frames: files.filter((f) => f.endsWith('.png')), parts: files.filter((f) => f.includes('.part')) });
    await new Promise((r) => setTimeout(r, 100));
  }
  return looks;
}

/** Looks taken while the job rendered with some of its frames, not all, in the folder. */
function whileRendering(looks: Look[]): Look[] {
  return looks.filter((l) => l.before === 'rendering' && l.after === 'rendering' && l.frames.length > 0 && l.frames.length < FRAMES);
}

describe.skipIf(!blenderPath)('frames on disk as they render (real node, real Blender)', () => {
  let t: TestNode;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-frames-on-disk-'));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('submit --download leaves finished frames in the folder while the job still renders, then every frame, and verify passes', { timeout: 300_000 }, async () => {
    const proxy = await startFarmProxy(t.url, { hideNodeRoutes: false });
    const cli = await cliSetup(proxy.url, t.key);
    const scene = await makeSampleScene(work, { frames: FRAMES, missingTexture: false, everySample: true, name: 'follow-shot.blend' });
    const out = join(work, 'submit-out');
    const run = runCli(['submit', scene, '--yes', ...SLOW, '--download', out, '--json'], { env: cli.env, timeoutMs: 240_000 });
    onTestFinished(() => proxy.close());
    const looks = await lookWhile(t, 'follow-shot.blend', out, run);
    const submitted = await run;
    expect(submitted.code, submitted.stderr).toBe(EXIT.ok);
    const ticks = proxy.requests.filter((r) => r === 'GET /api/external/v1/jobs/progress').length;
    expect(framesCalls(proxy.requests), 'at most one frames call per tracking tick').toBeLessThanOrEqual(ticks);
    expect(framesCalls(proxy.requests), 'a frames call when frames were done, not every tick').toBeLessThanOrEqual(FRAMES + 1);

    const during = whileRendering(looks);
    expect(during.length, 'frames were on disk while the job rendered').toBeGreaterThan(0);
    for (const look of during) {
      for (const frame of look.frames) expect(look.parts, `no .part of ${frame}, which is on disk`).not.toContain(`${frame}.part`);
    }
    expect(new Set(during.map((l) => l.frames.length)).size, 'the folder filled frame by frame').toBeGreaterThan(1);

    const [result] = parseSubmissions(submitted.stdout);
    expect(result).toMatchObject({ state: 'downloaded' });
    const folder: string = result.downloadedTo;
    expect(await filesUnder(folder)).toEqual(names);
    for (const name of names) expect(decodePng(await readFile(join(folder, name))).width).toBe(128);
    const verified = await runCli(['verify', result.jobId, '--json'], { env: cli.env });
    expect(verified.code, verified.stderr).toBe(EXIT.ok);
    expect(json(verified.stdout)).toMatchObject({ folder, expected: FRAMES, present: FRAMES, missing: [], broken: [], complete: true });
  });

  it('download --follow brings the frames of a rendering job in as they render, says how many are on disk, and completes the folder at the end', { timeout: 300_000 }, async () => {
    const cli = await cliSetup(t.url, t.key);
    const scene = await makeSampleScene(work, { frames: FRAMES, missingTexture: false, everySample: true, name: 'follow-later.blend' });
    const submitted = await runCli(['submit', scene, '--yes', ...SLOW, '--json'], { env: cli.env, timeoutMs: 120_000 });
    expect(submitted.code, submitted.stderr).toBe(EXIT.ok);
    const [started] = parseSubmissions(submitted.stdout);
    const out = join(work, 'follow-out');
    const run = runCli(['download', started.jobId, '--follow', '--dir', out], { env: cli.env, timeoutMs: 240_000 });
    const looks = await lookWhile(t, 'follow-later.blend', out, run);
    const followed = await run;
    expect(followed.code, followed.stderr).toBe(EXIT.ok);
    expect(whileRendering(looks).length, 'frames were on disk while the job rendered').toBeGreaterThan(0);
    expect(followed.stdout).toMatch(new RegExp(`\\d of ${FRAMES} frames on disk`));
    const [folderName] = await readdir(out);
    const folder = join(out, folderName!);
    expect(await filesUnder(folder)).toEqual(names);
    expect(followed.stdout).toContain(`to ${folder}`);
    const verified = await runCli(['verify', started.jobId, '--dir', folder, '--json'], { env: cli.env });
    expect(verified.code, verified.stderr).toBe(EXIT.ok);
    expect(json(verified.stdout)).toMatchObject({ present: FRAMES, complete: true });

    const again = await runCli(['download', started.jobId, '--follow', '--dir', out, '--json'], { env: cli.env });
    expect(again.code, again.stderr).toBe(EXIT.ok);
    const plain = json(again.stdout);
    expect(plain.files.filter((f: { skipped: boolean }) => f.skipped)).toHaveLength(FRAMES);
  });

  it('after frame 2 is rendered again in the same job (a requeue), download --follow replaces it, even over a stale copy of the same size, and fetches nothing else', { timeout: 300_000 }, async () => {
    const cli = await cliSetup(t.url, t.key);
    const scene = await makeSampleScene(work, { frames: 4, missingTexture: false, name: 'requeued.blend' });
    const out = join(work, 'requeue-out');
    const submitted = await runCli(['submit', scene, '--yes', '--samples', '2', '--download', out, '--json'], { env: cli.env, timeoutMs: 180_000 });
    expect(submitted.code, submitted.stderr).toBe(EXIT.ok);
    const [result] = parseSubmissions(submitted.stdout);
    const folder: string = result.downloadedTo;
    const four = names.slice(0, 4);
    expect(await filesUnder(folder)).toEqual(four);
    const second = join(folder, four[1]!);
    const { mtime } = await stat(second);
    await writeFile(second, randomBytes((await stat(second)).size));
    await utimes(second, new Date(), mtime);
    const timesBefore = await Promise.all(four.map(async (n) => (await stat(join(folder, n))).mtimeMs));

    const requeued = await t.call('POST', `/node/jobs/${result.jobId}/requeue`, { frames: ['2'] });
    expect(requeued.status, JSON.stringify(requeued.json)).toBe(200);
    const followed = await runCli(['download', result.jobId, '--follow', '--json'], { env: cli.env, timeoutMs: 180_000 });
    expect(followed.code, followed.stderr).toBe(EXIT.ok);
    expect(json(followed.stdout)).toMatchObject({ status: 'completed', dir: folder });
    const onNode = await readFile(join(t.node.ctx.storage.framesDir(result.jobId), four[1]!));
    expect((await readFile(second)).equals(onNode), 'frame 2 is the render of the requeue').toBe(true);
    const timesAfter = await Promise.all(four.map(async (n) => (await stat(join(folder, n))).mtimeMs));
    expect(timesAfter[1]).toBeGreaterThan(timesBefore[1]!);
    expect([timesAfter[0], timesAfter[2], timesAfter[3]], 'the other frames were not fetched again').toEqual([timesBefore[0], timesBefore[2], timesBefore[3]]);
    const verified = await runCli(['verify', result.jobId, '--json'], { env: cli.env });
    expect(verified.code, verified.stderr).toBe(EXIT.ok);
  });

  it('on a farm without the frames route, submit --download renders with an empty folder and downloads everything at the end', { timeout: 300_000 }, async () => {
    const proxy = await startFarmProxy(t.url, { hideNodeRoutes: true });
    try {
      const cli = await cliSetup(proxy.url, t.key);
      const scene = await makeSampleScene(work, { frames: FRAMES, missingTexture: false, everySample: true, name: 'other-farm.blend' });
      const out = join(work, 'other-out');
      const run = runCli(['submit', scene, '--yes', ...SLOW, '--download', out, '--json'], { env: cli.env, timeoutMs: 240_000 });
      const looks = await lookWhile(t, 'other-farm.blend', out, run);
      const submitted = await run;
      expect(submitted.code, submitted.stderr).toBe(EXIT.ok);
      const rendering = looks.filter((l) => l.before === 'rendering' && l.after === 'rendering');
      expect(rendering.length).toBeGreaterThan(0);
      expect(rendering.every((l) => l.frames.length === 0)).toBe(true);
      expect(framesCalls(proxy.requests), 'the frames route is asked once, then left alone').toBe(1);
      const [result] = parseSubmissions(submitted.stdout);
      expect(await filesUnder(result.downloadedTo)).toEqual(names);
      const verified = await runCli(['verify', result.jobId, '--json'], { env: cli.env });
      expect(verified.code, verified.stderr).toBe(EXIT.ok);
    } finally {
      await proxy.close();
    }
  });
});
