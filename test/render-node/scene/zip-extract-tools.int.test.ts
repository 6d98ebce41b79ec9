import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractZip } from '../../../src/render-node/scene/zip-extract';
import { requireZipTool } from '../../helpers/zip-tools';

let base: string;
let dest: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'rd-zip-'));
  dest = join(base, 'out', 'bundle');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('extractZip with zips made by the real zip tools', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);
  const blend = Buffer.from('BLENDER-v304 scene');

  /** A folder holding scene.blend and "Texturen Ü/Holz 木.png", as an artist's project would. */
  async function project(): Promise<string> {
    const dir = join(base, 'project');
    await mkdir(join(dir, 'Texturen Ü'), { recursive: true });
    await writeFile(join(dir, 'scene.blend'), blend);
    await writeFile(join(dir, 'Texturen Ü', 'Holz 木.png'), png);
    return dir;
  }

  const zipTool = requireZipTool('zip');
  const sevenZip = requireZipTool('7z');

  it.skipIf(!zipTool)('reads the UTF-8 names Info-ZIP zip stores without the UTF-8 flag', async () => {
    const dir = await project();
    const out = join(base, 'info-zip.zip');
    execFileSync(zipTool!, ['-r', '-q', out, 'scene.blend', 'Texturen Ü'], { cwd: dir, env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    const written = await extractZip(out, dest);
    expect([...written].sort()).toEqual(['Texturen Ü/Holz 木.png', 'scene.blend']);
    expect(await readFile(join(dest, 'Texturen Ü', 'Holz 木.png'))).toEqual(png);
  });

  it.skipIf(!sevenZip)('reads the names of a zip made by 7-Zip', async () => {
    const dir = await project();
    const out = join(base, 'seven.zip');
    execFileSync(sevenZip!, ['a', '-tzip', '-bd', out, 'scene.blend', 'Texturen Ü'], { cwd: dir, env: { ...process.env, LC_ALL: 'C.UTF-8' }, stdio: 'ignore' });
    const written = await extractZip(out, dest);
    expect([...written].sort()).toEqual(['Texturen Ü/Holz 木.png', 'scene.blend']);
    expect(await readFile(join(dest, 'scene.blend'))).toEqual(blend);
  });
});
