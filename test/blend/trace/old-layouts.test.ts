import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlendFile } from '../../../src/blend/reader/blend-file';
import { traceBlends } from '../../../src/blend/trace/trace-blends';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import { writeTree } from '../helpers/scene-folder';
import { LAYOUTS, SyntheticBlend, type SyntheticOptions } from '../helpers/synthetic-blend';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-old-layouts-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const png = Buffer.from('89504e470d0a1a0a0000', 'hex');

/**
 * `proj/shot.blend` linking `//linked_cube.blend`, which links `//sub/linked_sub.blend`, all in one
 * layout; each library's runtime copy names a .blend that exists elsewhere (where the saving machine
 * had it), which Blender never reads.
 */
async function chain(options: SyntheticOptions): Promise<string> {
  const elsewhere = join(root, 'elsewhere');
  const scene = new SyntheticBlend(options);
  scene.addLibrary({ name: 'linked_cube.blend', path: '//linked_cube.blend', absolute: join(elsewhere, 'linked_cube.blend') });
  scene.addImage({ name: 'Wood', path: '//tex/wood.png' });
  scene.addSound({ name: 'Hit', path: '//audio/hit.wav' });
  scene.addText({ name: 'rig.py', path: '//scripts/rig.py' });
  const cube = new SyntheticBlend(options);
  cube.addLibrary({ name: 'linked_sub.blend', path: '//sub/linked_sub.blend', absolute: join(elsewhere, 'sub', 'linked_sub.blend') });
  cube.addImage({ name: 'Cube', path: '//tex/cube.png' });
  const sub = new SyntheticBlend(options);
  sub.addImage({ name: 'Sub', path: '//grid.png' });
  const decoy = new SyntheticBlend(options);
  decoy.addImage({ name: 'Decoy', path: '//decoy.png' });
  await writeTree(root, {
    'proj/shot.blend': scene.build(),
    'proj/linked_cube.blend': cube.build(),
    'proj/sub/linked_sub.blend': sub.build(),
    'proj/tex/wood.png': png,
    'proj/tex/cube.png': png,
    'proj/sub/grid.png': png,
    'proj/audio/hit.wav': 'RIFF',
    'proj/scripts/rig.py': 'print()',
    'elsewhere/linked_cube.blend': decoy.build(),
    'elsewhere/sub/linked_sub.blend': decoy.build(),
    'elsewhere/decoy.png': png,
  });
  return join(root, 'proj', 'shot.blend');
}

describe('traceScene reads the path Blender reads in every layout', () => {
  it.each(LAYOUTS)('%s', async (_label, options) => {
    const plan = await traceScene(await chain(options), { platform: 'posix' });
    const proj = join(root, 'proj');
    expect(plan.blends.map((b) => b.path)).toEqual([join(proj, 'shot.blend'), join(proj, 'linked_cube.blend'), join(proj, 'sub/linked_sub.blend')]);
    const found = plan.dependencies.map((d) => [d.kind, d.owner, d.stored, d.status, d.resolved]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['library', 'linked_cube.blend', '//linked_cube.blend', 'found', join(proj, 'linked_cube.blend')],
        ['image', 'Wood', '//tex/wood.png', 'found', join(proj, 'tex/wood.png')],
        ['sound', 'Hit', '//audio/hit.wav', 'found', join(proj, 'audio/hit.wav')],
        ['text', 'rig.py', '//scripts/rig.py', 'found', join(proj, 'scripts/rig.py')],
        ['library', 'linked_sub.blend', '//sub/linked_sub.blend', 'found', join(proj, 'sub/linked_sub.blend')],
        ['image', 'Cube', '//tex/cube.png', 'found', join(proj, 'tex/cube.png')],
        ['image', 'Sub', '//grid.png', 'found', join(proj, 'sub/grid.png')],
      ]),
    );
    expect(plan.dependencies).toHaveLength(7);
    expect(plan.missing).toEqual([]);
    expect(plan.entries.map((e) => e.name).join(' ')).not.toMatch(/elsewhere|decoy/);
  });

  it.each(LAYOUTS)('%s: the slot of a library path is the field Blender reads', async (_label, options) => {
    const scenePath = await chain(options);
    const trace = await traceBlends(scenePath, { platform: 'posix' });
    const library = trace.blends[0]!.dependencies.find((d) => d.owner === 'linked_cube.blend')!;
    const file = await BlendFile.open(scenePath);
    try {
      const view = (await file.struct(file.idBlocks('LI')[0]!))!;
      expect(library.slot).toEqual({ type: 'fixed', offset: view.offset + view.def.field('name')!.offset, size: 1024 });
    } finally {
      await file.close();
    }
  });

  it('reports the stored path, not the runtime copy, when a 2.79 library is missing', async () => {
    const scene = new SyntheticBlend({ version: 279 });
    scene.addLibrary({ name: 'linked_cube.blend', path: '//linked_cube.blend', absolute: '/home/someone/old-project/linked_cube.blend' });
    await writeTree(root, { 'shot.blend': scene.build() });
    const plan = await traceScene(join(root, 'shot.blend'), { platform: 'posix' });
    expect(plan.missing).toEqual([expect.objectContaining({ stored: '//linked_cube.blend', resolved: join(root, 'linked_cube.blend') })]);
    expect(plan.missing[0]!.problem).not.toContain('/home/someone');
  });
});
