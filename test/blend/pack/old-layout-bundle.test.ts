import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeBundle } from '../../../src/blend/pack/write-bundle';
import { BlendFile } from '../../../src/blend/reader/blend-file';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import { hashTree, readZip, writeTree } from '../helpers/scene-folder';
import { SyntheticBlend } from '../helpers/synthetic-blend';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-old-bundle-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
const SAVED_AT = '/home/someone/old-project';

/** The stored path and the runtime copy of the first library of a .blend, read from its raw fields. */
async function libraryFields(path: string): Promise<{ stored: string; runtime: string }> {
  const file = await BlendFile.open(path);
  try {
    const view = (await file.struct(file.idBlocks('LI')[0]!))!;
    const raw = async (name: string) => {
      const field = view.def.field(name)!;
      const bytes = await file.source.read(view.offset + field.offset, field.size);
      return bytes.subarray(0, bytes.indexOf(0)).toString('utf8');
    };
    return { stored: await raw('name'), runtime: await raw('filepath') };
  } finally {
    await file.close();
  }
}

describe('writeBundle with files saved by Blender 2.79', () => {
  it('packs a library and the library it links, and points the paths Blender reads at them', async () => {
    const scene = new SyntheticBlend({ version: 279 });
    scene.addLibrary({ name: 'linked_cube.blend', path: '//linked_cube.blend', absolute: `${SAVED_AT}/linked_cube.blend` });
    const cube = new SyntheticBlend({ version: 279, pointerSize: 4 });
    cube.addLibrary({ name: 'linked_sub.blend', path: '//sub/linked_sub.blend', absolute: `${SAVED_AT}/sub/linked_sub.blend` });
    cube.addImage({ name: 'Cube', path: '//tex/cube.png' });
    const sub = new SyntheticBlend({ version: 279 });
    sub.addImage({ name: 'Grid', path: '//grid.png' });
    await writeTree(root, {
      'proj/shot.blend': scene.build(),
      'proj/linked_cube.blend': cube.build(),
      'proj/sub/linked_sub.blend': sub.build(),
      'proj/tex/cube.png': png,
      'proj/sub/grid.png': png,
    });
    const before = await hashTree(root);

    const plan = await traceScene(join(root, 'proj', 'shot.blend'), { platform: 'posix' });
    expect(plan.missing).toEqual([]);
    expect(plan.blends.map((b) => [b.path, b.version])).toEqual([
      [join(root, 'proj/shot.blend'), 279],
      [join(root, 'proj/linked_cube.blend'), 279],
      [join(root, 'proj/sub/linked_sub.blend'), 279],
    ]);
    const out = join(root, 'out', 'bundle.zip');
    await mkdir(dirname(out));
    await writeBundle(plan, out);

    const entries = await readZip(out);
    const names = entries.map((e) => e.name);
    expect(names).toEqual(plan.entries.map((e) => e.name));
    for (const blend of plan.blends) expect(names).toContain(blend.entry);
    expect(names).toEqual(expect.arrayContaining(['tex/cube.png', 'sub/grid.png']));

    const unpacked = join(root, 'unpacked');
    for (const entry of entries) {
      await mkdir(dirname(join(unpacked, entry.name)), { recursive: true });
      await writeFile(join(unpacked, entry.name), entry.data);
    }
    const again = await traceScene(join(unpacked, 'shot.blend'), { platform: 'posix' });
    expect(again.missing).toEqual([]);
    expect(again.blends).toHaveLength(3);
    expect(again.dependencies.every((d) => d.status === 'found' && d.resolved!.startsWith(unpacked))).toBe(true);
    expect(again.blends.every((b) => b.patches.length === 0)).toBe(true);

    const cubeEntry = plan.blends[1]!.entry;
    const sceneFields = await libraryFields(join(unpacked, 'shot.blend'));
    expect(sceneFields).toEqual({ stored: `//${cubeEntry}`, runtime: `${SAVED_AT}/linked_cube.blend` });
    const cubeFields = await libraryFields(join(unpacked, cubeEntry));
    expect(join(unpacked, dirname(cubeEntry), cubeFields.stored.slice(2))).toBe(join(unpacked, plan.blends[2]!.entry));
    expect(cubeFields.runtime).toBe(`${SAVED_AT}/sub/linked_sub.blend`);
    expect(await hashTree(join(root, 'proj'))).toEqual(Object.fromEntries(Object.entries(before).map(([k, v]) => [k.replace(/^proj\//, ''), v])));
  });
});
