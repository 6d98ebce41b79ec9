import { mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyntheticBlend } from '../blend/helpers/synthetic-blend';
import { writeTree } from '../blend/helpers/scene-folder';
import { runCli } from '../helpers/cli';
import { FakeApi } from '../helpers/fake-api-server';
import { cliSetup, type CliSetup } from './helpers/cli-setup';

const GIB = 1024 ** 3;

describe('renderdrop submit of a scene whose bundle would reach the 5 GiB upload limit', () => {
  let work: string;
  let api: FakeApi;
  let cli: CliSetup;
  let scene: string;
  let plate: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-limit-'));
    const blend = new SyntheticBlend();
    blend.addImage({ name: 'Grid', path: '//textures/grid.png' });
    blend.addImage({ name: 'Plate', path: '//plates/plate.exr' });
    await writeTree(work, { 'proj/shot.blend': blend.build(), 'proj/textures/grid.png': Buffer.from('89504e470d0a1a0a0001', 'hex'), 'proj/plates/plate.exr': 'x' });
    scene = join(work, 'proj', 'shot.blend');
    plate = join(work, 'proj', 'plates', 'plate.exr');
    // Sparse: 5 GiB on paper, next to nothing on the disk.
    await truncate(plate, 5 * GIB);
    api = await FakeApi.start();
    cli = await cliSetup(api.server.url, 'RJ-test');
  });
  afterAll(async () => {
    await api?.server.close();
    if (work) await rm(work, { recursive: true, force: true });
    if (cli) await rm(cli.configDir, { recursive: true, force: true });
  });

  it('is refused in one line before a byte is packed or a request is sent', async () => {
    const run = await runCli(['submit', scene, '--yes'], { env: cli.env, timeoutMs: 120_000 });
    expect(run.code, run.stdout + run.stderr).not.toBe(0);
    const said = (run.stdout + run.stderr).trim().split('\n').filter((line) => line.includes('bundle of up to'));
    expect(said).toEqual([
      expect.stringMatching(
        /shot\.blend and the files it uses would make a bundle of up to 5\.4 GB \(the largest file: .*plate\.exr, 5\.4 GB\), and uploads must be smaller than 5 GiB\. Nothing was packed or sent\. In Blender, free the bakes and caches the render does not need, or make the scene use smaller files, then submit it again; or render it on a farm that takes bigger uploads\.$/,
      ),
    ]);
    expect(run.stdout + run.stderr).not.toMatch(/packing +\d|uploaded/);
    expect(api.server.requestsTo('POST', /\/uploads$/)).toHaveLength(0);
    expect(api.uploads.size).toBe(0);
    expect(await readdir(join(cli.configDir, 'bundles')).catch(() => [])).toEqual([]);
    const [record] = await cli.journal();
    expect(record).toMatchObject({ ending: 'failed', bundle: null, error: { kind: 'packing' } });
  });

  it('renderdrop pack says the same of the plan, and a bundle below the limit goes out as before', async () => {
    const plan = await runCli(['pack', scene], { env: cli.env, timeoutMs: 60_000 });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^! shot\.blend and the files it uses would make a bundle of up to 5\.4 GB .* renderdrop submit refuses it before packing\. /m);

    await truncate(plate, 2048);
    await writeFile(join(work, 'proj', 'textures', 'grid.png'), Buffer.from('89504e470d0a1a0a0002', 'hex'));
    const run = await runCli(['submit', scene, '--yes', '--new', '--validate-only'], { env: cli.env, timeoutMs: 120_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(api.uploads.size).toBe(1);
    expect([...api.uploads.values()][0]).toMatchObject({ fileName: 'shot.zip', fileType: 'zip' });
  });
});
