import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { startTestNode, type TestNode } from '../helpers/node';
import { makePackingScene, renderInPlace } from '../helpers/pack-corpus';
import { decodePng, hasColour, type Pixels } from '../helpers/png-pixels';
import { expectSameFrames } from '../helpers/same-frames';
import { cliSetup, nodeJobs, parseSubmissions, type CliSetup } from './helpers/cli-setup';
import { spawnCli, until } from './helpers/spawn-cli';

const blenderPath = requireBlender();

async function sha256(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

/** An OpenEXR header saying "no compression", then random bytes: the packer deflates it, which takes a while. */
function slowToPack(size: number): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(0x01312f76, 0);
  head.writeUInt32LE(2, 4);
  const attribute = Buffer.concat([Buffer.from('compression\0compression\0', 'latin1'), Buffer.from([1, 0, 0, 0, 0]), Buffer.from([0])]);
  return Buffer.concat([head, attribute, randomBytes(size)]);
}

describe.skipIf(!blenderPath)('renderdrop submit packs a scene with the files it uses (real node, real Blender)', () => {
  let work: string;
  let proj: string;
  let scene: string;
  let t: TestNode;
  let cli: CliSetup;
  let inPlace: Pixels[];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-pack-'));
    const made = await makePackingScene(blenderPath!, work);
    scene = made.scene;
    proj = join(work, 'proj');
    await renderInPlace(blenderPath!, scene, join(work, 'inplace', 'frame_'), 1, 2);
    inPlace = await Promise.all([1, 2].map(async (n) => decodePng(await readFile(join(work, 'inplace', `frame_000${n}.png`)))));
    for (const key of ['grid', 'stamp']) expect(hasColour(inPlace[0]!, made.colours[key]!), `Blender in place shows ${key}`).toBe(true);
    // A node without chunked uploads: these tests are about the zip itself, PUT whole as to any farm
    // (for a node that takes chunks the bundle is stored undeflated; see cli-chunked-upload.int.test.ts).
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }), chunkStoreMaxBytes: 0 });
    cli = await cliSetup(t.url, t.key);
  });
  afterAll(async () => {
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('names the missing files before the upload, sends the bundle, and renders frames pixel-identical to Blender in place', async () => {
    const out = join(work, 'out');
    // The stamp sits in shared/ beside the scene's folder: the project is `work`, given once and remembered.
    const run = await runCli(['submit', scene, '--yes', '--download', out, '--project', work], { env: cli.env, timeoutMs: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`shot.blend: the project is ${work} (as --project says; remembered for this scene).`);
    expect(run.stdout).not.toContain('held at the edge');
    const missing = join(proj, 'textures', 'missing.png');
    expect(run.stdout).toMatch(/shot\.blend: 3 files, .+ travel with the scene\./);
    expect(run.stdout).toContain(`shot.blend: 2 files it uses are missing; the farm renders without them:\n  ${join(proj, 'textures', 'big.exr')} (image "big": not on this computer)\n  ${missing} (image "missing": not on this computer)`);
    expect(run.stdout.indexOf(missing)).toBeLessThan(run.stdout.search(/shot\.blend +uploaded/));
    expect(run.stdout).toContain(`! Missing image "missing": ${missing}. The farm renders without it.`);
    expect(run.stdout).not.toMatch(/_external|_libraries/);
    expect(run.stdout).not.toContain(t.dataDir);

    const [record] = await cli.journal();
    expect(record).toMatchObject({ step: 'downloaded', ending: null, bundle: { size: expect.any(Number) } });
    expect(await sha256(join(t.dataDir, 'uploads', record!.slug!))).toBe(record!.bundle!.sha256);
    expect(await readdir(join(cli.configDir, 'bundles'))).toEqual([]);
    const [job] = await nodeJobs(t);
    expect(job.sceneFile).toMatchObject({ fileName: 'shot.zip', fileType: 'zip', scenePath: 'shot.blend' });

    const folder = record!.downloadedTo!;
    await expectSameFrames(folder, ['shot_0001.png', 'shot_0002.png'], inPlace);
  });

  it('--no-pack sends the .blend alone', async () => {
    const before = (await nodeJobs(t)).length;
    const run = await runCli(['submit', scene, '--yes', '--no-pack', '--new', '--frames', '1', '--json'], { env: cli.env, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    const [result] = parseSubmissions(run.stdout);
    const record = (await cli.journal()).find((r) => r.id === result.submissionId)!;
    expect([record.pack, record.packing, record.bundle]).toEqual([false, null, null]);
    const jobs = await nodeJobs(t);
    expect(jobs).toHaveLength(before + 1);
    expect(jobs.find((j) => j.id === result.jobId).sceneFile).toMatchObject({ fileName: 'shot.blend', fileType: 'blend', size: (await stat(scene)).size });
    expect(run.stderr).not.toMatch(/travel with the scene/);
    expect(run.stderr).toContain('! Missing image "grid": //textures/grid.png. Submit without --no-pack to send it with the scene.');
  });

  it('after a kill while packing, resume sends the same bundle bytes and makes exactly one job', async () => {
    await writeFile(join(proj, 'textures', 'big.exr'), slowToPack(48 * 1024 * 1024));
    const before = (await nodeJobs(t)).length;
    const known = new Set((await cli.journal()).map((r) => r.id));
    const child = spawnCli(['submit', scene, '--yes', '--new', '--frames', '1', '--json'], cli.env);
    const record = await until(
      'packing to begin',
      async () => {
        const fresh = (await cli.journal()).find((r) => !known.has(r.id));
        if (fresh?.step !== 'packing') return null;
        return (await stat(join(cli.configDir, 'bundles', `${fresh.id}.zip.part`)).catch(() => null)) ? fresh : null;
      },
      120_000,
      20,
    );
    child.child.kill('SIGKILL');
    await child.exited;
    const killed = (await cli.journal()).find((r) => r.id === record.id)!;
    expect([killed.step, killed.bundle]).toEqual(['packing', null]);
    expect((await nodeJobs(t)).length).toBe(before);

    const reference = join(work, 'reference.zip');
    expect((await runCli(['pack', scene, '--out', reference], { env: cli.env, timeoutMs: 120_000 })).code).toBe(0);
    const resumed = await runCli(['resume', '--yes', '--json'], { env: cli.env, timeoutMs: 170_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const done = (await cli.journal()).find((r) => r.id === record.id)!;
    expect(done.ending).toBeNull();
    expect(done.bundle!.sha256).toBe(await sha256(reference));
    expect(await sha256(join(t.dataDir, 'uploads', done.slug!))).toBe(done.bundle!.sha256);
    const jobs = await nodeJobs(t);
    expect(jobs).toHaveLength(before + 1);
    expect(jobs.filter((j) => j.id === done.jobId)).toHaveLength(1);
    expect(await readdir(join(cli.configDir, 'bundles'))).toEqual([]);
  });
});
