import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/run-cli-in-process';
import { readZip, writeTree } from '../../blend/helpers/scene-folder';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';

let root: string;
let scene: string;
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2048, 1)]);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-cli-pack-'));
  const blend = new SyntheticBlend();
  blend.addImage({ name: 'Grid', path: '//textures/grid.png' });
  blend.addImage({ name: 'Metal', path: join(root, 'elsewhere', 'metal.png') });
  blend.addImage({ name: 'Logo', path: '//logo.png', packed: true });
  blend.addImage({ name: 'Wood', path: 'C:\\tex\\wood.png' });
  const bytes = blend.build();
  await writeTree(root, {
    'proj/shot.blend': bytes,
    'proj/textures/grid.png': png,
    'elsewhere/metal.png': png,
    'notes.blend': 'just some notes\n'.repeat(20),
    'cut.blend': bytes.subarray(0, 300),
  });
  scene = join(root, 'proj', 'shot.blend');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The texture outside the scene's folder travels only when allowed (see private-files.test.ts). */
const ELSEWHERE = () => ['--allow-outside', join(root, 'elsewhere')];

describe('renderdrop pack', () => {
  it('lists found, packed and missing files with their sizes and places in the bundle', async () => {
    const run = await runCliInProcess(['pack', scene, ...ELSEWHERE()]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Scene ${scene} \\(Blender 3\\.4, [0-9.]+ KB\\) -> shot\\.blend$`, 'm'));
    expect(run.stdout).toMatch(/found\s+image\s+\/\/textures\/grid\.png\s+2\.1 KB\s+textures\/grid\.png/);
    expect(run.stdout).toMatch(new RegExp(`found\\s+image\\s+${join(root, 'elsewhere', 'metal.png')}\\s+2\\.1 KB\\s+_external${join(root, 'elsewhere', 'metal.png')}`));
    expect(run.stdout).toMatch(/packed\s+image\s+\/\/logo\.png\s+-\s+inside shot\.blend/);
    expect(run.stdout).toMatch(/missing\s+image\s+C:\\tex\\wood\.png/);
    expect(run.stdout).toContain('Missing (1): the farm will render without this file.');
    expect(run.stdout).toContain('  C:\\tex\\wood.png (image "Wood": a Windows path from another computer)\n  Relink it in Blender, or make the paths relative');
    expect(run.stdout).toContain('Bundle: 3 files,');
    expect(run.stdout).toContain('Nothing was written; add --out <bundle.zip> to write the bundle.');
  });

  it('writes the bundle with --out', async () => {
    const out = join(root, 'shot.zip');
    const run = await runCliInProcess(['pack', scene, '--out', out, ...ELSEWHERE()]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Wrote ${out}: 3 files,`);
    expect((await readZip(out)).map((e) => e.name)).toEqual(['shot.blend', `_external${join(root, 'elsewhere', 'metal.png')}`, 'textures/grid.png']);
  });

  it('prints the plan and the bundle as JSON with --json, progress on stderr', async () => {
    const out = join(root, 'json.zip');
    const run = await runCliInProcess(['pack', scene, '--out', out, '--json', ...ELSEWHERE()]);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.needsPacking).toBe(true);
    expect(result.plan.entries.map((e: { name: string }) => e.name)).toHaveLength(3);
    expect(result.plan.missing).toEqual([expect.objectContaining({ stored: 'C:\\tex\\wood.png', status: 'other-system' })]);
    expect(result.bundle).toMatchObject({ path: out, entries: 3 });
    expect(result.warnings).toEqual([expect.stringMatching(/^The image "Wood" uses C:\\tex\\wood\.png: a Windows path from another computer\. /)]);
    expect(run.stderr).toMatch(/packing\s+100%\s+3\/3 files/);
  });

  it('says in one line when --out names a folder that does not exist or an existing folder, as a usage error', async () => {
    const nowhere = join(root, 'no-such-folder', 'shot.zip');
    const missing = await runCliInProcess(['pack', scene, '--out', nowhere]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')[0]).toBe(`renderdrop: --out ${nowhere}: the folder ${join(root, 'no-such-folder')} does not exist. Create it first, or choose another place for the bundle.`);
    const folder = await runCliInProcess(['pack', scene, '--out', join(root, 'proj')]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`--out ${join(root, 'proj')} is a folder; give the path of the zip to write`);
    for (const run of [missing, folder]) expect(run.stderr).not.toMatch(/\n\s+at |ENOENT|EISDIR|Unexpected error/);
  });

  it('refuses a .blend1 backup as submit does, and never packs the backups beside the scene', async () => {
    await writeTree(root, { 'proj/shot.blend1': await readFile(scene) });
    const backup = await runCliInProcess(['pack', join(root, 'proj', 'shot.blend1')]);
    expect(backup.code).toBe(1);
    expect(backup.stderr).toContain('shot.blend1 is a backup Blender keeps beside a scene, not a .blend or .zip file.');
    const run = await runCliInProcess(['pack', scene, '--json']);
    expect(JSON.parse(run.stdout).plan.entries.map((e: { name: string }) => e.name)).not.toContain('shot.blend1');
  });

  it('says clearly when the file is not a .blend or is cut short', async () => {
    const notes = await runCliInProcess(['pack', join(root, 'notes.blend')]);
    expect(notes.code).toBe(1);
    expect(notes.stderr).toContain(`${join(root, 'notes.blend')} is not a Blender file`);
    const cut = await runCliInProcess(['pack', join(root, 'cut.blend'), '--out', join(root, 'cut.zip')]);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain('cut.blend is incomplete');
    expect((await readdir(root)).filter((n) => n.startsWith('cut.zip'))).toEqual([]);
  });
});
