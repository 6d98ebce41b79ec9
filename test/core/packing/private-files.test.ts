import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceScene } from '../../../src/blend/trace/trace-scene';
import { missingPlaces, summarizePlan } from '../../../src/core/packing/pack-summary';
import { holdPrivateFiles } from '../../../src/core/packing/private-files';
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
  await writeTree(root, { 'proj/shot.blend': blend.build(), 'proj/textures/grid.png': 'png', 'shared/wood.png': 'wood', 'home/.aws/credentials': '[default]\n' });
  await symlink(key, join(root, 'proj', 'textures', 'linked.png'));
  scene = join(root, 'proj', 'shot.blend');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('holdPrivateFiles', () => {
  it('leaves out private files outside the project, a link inside the project that leads to one too, and keeps the rest', async () => {
    const { plan, privateFiles } = await holdPrivateFiles(await traceScene(scene), []);
    expect(privateFiles.map((f) => [f.path, f.owner, f.allowed])).toEqual([
      [key, 'Creds', false],
      [join(root, 'proj', 'textures', 'linked.png'), 'Linked', false],
    ]);
    expect(plan.entries.map((e) => e.name)).toEqual(['shot.blend', `_external${join(root, 'shared', 'wood.png')}`, 'textures/grid.png']);
    expect(plan.dependencies.filter((d) => d.leftOut).map((d) => d.owner)).toEqual(['Linked', 'Creds']);
    const summary = summarizePlan(plan, privateFiles);
    expect(summary.places.filter((p) => p.missing === 'left-out').map((p) => p.owner)).toEqual(['Linked', 'Creds']);
    expect(missingPlaces(summary)).toEqual([]);
    expect(summary.files).toBe(3);
  });

  it('packs what --allow-outside allows, and the fingerprint tells the two bundles apart (the same choice, the same one)', async () => {
    const traced = await traceScene(scene);
    const held = await holdPrivateFiles(traced, []);
    const allowed = await holdPrivateFiles(traced, [join(root, 'home')]);
    expect(allowed.privateFiles.map((f) => f.allowed)).toEqual([true, true]);
    expect(allowed.plan.entries).toHaveLength(5);
    expect(allowed.plan.fingerprint).toBe(traced.fingerprint);
    expect(held.plan.fingerprint).not.toBe(traced.fingerprint);
    expect((await holdPrivateFiles(await traceScene(scene), [])).plan.fingerprint).toBe(held.plan.fingerprint);
  });
});
