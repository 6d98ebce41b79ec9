import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import { missingPlaces, summarizePlan } from '../../../src/core/packing/pack-summary';
import { folderBoundary, holdPrivateFiles } from '../../../src/core/packing/private-files';
import { writeTree } from '../../blend/helpers/scene-folder';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';

let root: string;
let scene: string;
let key: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-private-files-'));
  key = join(root, 'home', '.aws', 'credentials');
  const blend = new SyntheticBlend();
  blend.addImage({ name: 'Grid', path: '//textures/grid.png' });
  blend.addImage({ name: 'Linked', path: '//textures/linked.png' });
  blend.addImage({ name: 'Shared', path: join(root, 'shared', 'wood.png') });
  blend.addImage({ name: 'Creds', path: key });
  blend.addImage({ name: 'Frames', path: '//seq/f_0001.png', source: 2 });
  await writeTree(root, {
    'proj/shot.blend': blend.build(),
    'proj/textures/grid.png': 'png',
    'shared/wood.png': 'wood',
    'home/.aws/credentials': '[default]\n',
    'Documents/f_0001.png': 'frame',
    'Documents/diary.txt': 'dear diary',
  });
  await symlink(key, join(root, 'proj', 'textures', 'linked.png'));
  await symlink(join(root, 'Documents'), join(root, 'proj', 'seq'));
  scene = join(root, 'proj', 'shot.blend');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The scene traced as the packer traces it: folders outside the project (or not allowed) are never read. */
const traced = (allowOutside: string[] = [], project = join(root, 'proj')) => traceScene(scene, { mayList: folderBoundary({ project, allowOutside }) });

describe('holdPrivateFiles', () => {
  it('leaves out every file outside the project, a link inside it leading out, and never reads a folder that leads out', async () => {
    const { plan, privateFiles } = await holdPrivateFiles(await traced(), []);
    expect(privateFiles.map((f) => [f.path, f.owner, f.held, f.allowed])).toEqual([
      [join(root, 'home', '.aws', 'credentials'), 'Creds', 'secret', false],
      [join(root, 'proj', 'seq'), 'Frames', 'outside', false],
      [join(root, 'proj', 'textures', 'linked.png'), 'Linked', 'secret', false],
      [join(root, 'shared', 'wood.png'), 'Shared', 'outside', false],
    ]);
    expect(privateFiles[2]!.why).toBe(`a link to ${key}, outside the project, in .aws, a folder of keys, passwords, settings or a browser's profile`);
    expect(plan.entries.map((e) => e.name)).toEqual(['shot.blend', 'textures/grid.png']);
    expect(plan.dependencies.find((d) => d.owner === 'Frames')).toMatchObject({ status: 'outside', files: [] });
    expect(plan.dependencies.filter((d) => d.leftOut).map((d) => d.owner)).toEqual(['Linked', 'Shared', 'Creds']);
    const summary = summarizePlan(plan, privateFiles);
    expect(summary.places.filter((p) => p.missing === 'left-out').map((p) => p.owner)).toEqual(['Linked', 'Shared', 'Creds', 'Frames']);
    expect(missingPlaces(summary)).toEqual([]);
    expect(summary.files).toBe(2);
  });

  it('packs what --allow-outside allows, and the fingerprint tells the bundles apart (the same choice, the same one)', async () => {
    const plain = await traceScene(scene);
    const held = await holdPrivateFiles(plain, []);
    const aroundSecrets = await holdPrivateFiles(plain, [join(root, 'home'), join(root, 'shared')]);
    expect(aroundSecrets.privateFiles.map((f) => [f.owner, f.allowed])).toEqual([['Creds', false], ['Frames', false], ['Linked', false], ['Shared', true]]);
    const allowed = await holdPrivateFiles(plain, [join(root, 'home', '.aws'), join(root, 'shared'), join(root, 'Documents')]);
    expect(allowed.privateFiles.every((f) => f.allowed)).toBe(true);
    expect(allowed.plan.entries).toHaveLength(6);
    expect(allowed.plan.fingerprint).toBe(plain.fingerprint);
    expect(held.plan.fingerprint).not.toBe(plain.fingerprint);
    expect((await holdPrivateFiles(await traceScene(scene), [])).plan.fingerprint).toBe(held.plan.fingerprint);
  });

  it('takes a larger project as a whole, but still holds a secret place inside it', async () => {
    const { plan, privateFiles } = await holdPrivateFiles(await traced([], root), [], root);
    expect(privateFiles.map((f) => [f.owner, f.held])).toEqual([['Creds', 'secret'], ['Linked', 'secret']]);
    expect(plan.entries.map((e) => e.name)).toEqual(['shot.blend', `_external${join(root, 'shared', 'wood.png')}`, 'seq/f_0001.png', 'textures/grid.png']);
  });
});
