import { link, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlendFile } from '../../../src/blend/reader/blend-file';
import { collectReferences } from '../../../src/blend/trace/collect-references';
import { severOutsidePaths } from '../../../src/blend/pack/sever-outside-paths';
import { writeTree } from '../helpers/scene-folder';
import { SyntheticBlend } from '../helpers/synthetic-blend';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-sever-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function storedPaths(path: string): Promise<string[]> {
  const file = await BlendFile.open(path);
  try {
    return (await collectReferences(file)).map((r) => r.stored);
  } finally {
    await file.close();
  }
}

describe('severOutsidePaths', () => {
  it('points libraries leading outside the folder at nothing inside it, in the scene and in its libraries, and leaves the rest', async () => {
    const scene = new SyntheticBlend();
    scene.addLibrary({ name: 'abs.blend', path: join(root, 'elsewhere', 'abs.blend') });
    scene.addLibrary({ name: 'up.blend', path: '//../elsewhere/up.blend' });
    scene.addLibrary({ name: 'win.blend', path: 'C:\\libs\\win.blend' });
    scene.addLibrary({ name: 'inner.blend', path: '//libs/inner.blend' });
    scene.addImage({ name: 'Far', path: '/far/away.png' });
    const inner = new SyntheticBlend();
    inner.addLibrary({ name: 'deep.blend', path: '//../../elsewhere/deep.blend' });
    inner.addLibrary({ name: 'near.blend', path: '//near.blend' });
    const job = join(root, 'job');
    await writeTree(root, { 'job/scene.blend': scene.build(), 'job/libs/inner.blend': inner.build(), 'job/libs/near.blend': new SyntheticBlend().build() });
    await link(join(job, 'scene.blend'), join(root, 'upload.blend'));
    const upload = await readFile(join(root, 'upload.blend'));

    const severed = await severOutsidePaths(join(job, 'scene.blend'), job, { nowhere: '.nowhere' });
    expect(severed.map((s) => [s.holder, s.kind, s.owner, s.stored, s.replacement])).toEqual([
      [join(job, 'scene.blend'), 'library', 'abs.blend', join(root, 'elsewhere', 'abs.blend'), '//.nowhere/0/abs.blend'],
      [join(job, 'scene.blend'), 'library', 'up.blend', '//../elsewhere/up.blend', '//.nowhere/1/up.blend'],
      [join(job, 'scene.blend'), 'library', 'win.blend', 'C:\\libs\\win.blend', '//.nowhere/2/win.blend'],
      [join(job, 'libs', 'inner.blend'), 'library', 'deep.blend', '//../../elsewhere/deep.blend', '//../.nowhere/3/deep.blend'],
    ]);
    expect(await storedPaths(join(job, 'scene.blend'))).toEqual(['//.nowhere/0/abs.blend', '//.nowhere/1/up.blend', '//.nowhere/2/win.blend', '//libs/inner.blend', '/far/away.png']);
    expect(await storedPaths(join(job, 'libs', 'inner.blend'))).toEqual(['//../.nowhere/3/deep.blend', '//near.blend']);
    expect((await readFile(join(root, 'upload.blend'))).equals(upload)).toBe(true);
  });

  it('leaves a scene without outside libraries byte for byte (a library that is not there is no matter)', async () => {
    const scene = new SyntheticBlend();
    scene.addLibrary({ name: 'inner.blend', path: '//inner.blend' });
    await writeTree(root, { 'scene.blend': scene.build() });
    const before = await readFile(join(root, 'scene.blend'));
    expect(await severOutsidePaths(join(root, 'scene.blend'), root, { nowhere: '.nowhere' })).toEqual([]);
    expect((await readFile(join(root, 'scene.blend'))).equals(before)).toBe(true);
  });

  it('refuses a scene, or a library inside the folder, it cannot read, leaving it as it is', async () => {
    const scene = new SyntheticBlend();
    scene.addLibrary({ name: 'odd.blend', path: '//odd.blend' });
    scene.addLibrary({ name: 'abs.blend', path: join(root, '..', 'elsewhere', 'abs.blend') });
    await writeTree(root, { 'scene.blend': scene.build(), 'odd.blend': 'BLENDER-v304 but nothing else' });
    await expect(severOutsidePaths(join(root, 'odd.blend'), root, { nowhere: '.nowhere' })).rejects.toMatchObject({ name: 'BlendFileError', path: join(root, 'odd.blend') });
    await expect(severOutsidePaths(join(root, 'scene.blend'), root, { nowhere: '.nowhere' })).rejects.toMatchObject({ name: 'BlendFileError', path: join(root, 'odd.blend') });
    expect(await readFile(join(root, 'odd.blend'), 'utf8')).toBe('BLENDER-v304 but nothing else');
  });
});
