import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundleLayout } from '../../../src/blend/pack/bundle-layout';
import { bundlePathOf, rewritePatches } from '../../../src/blend/pack/rewrite-paths';
import type { Dependency } from '../../../src/blend/trace/dependency';
import type { PathReference } from '../../../src/blend/trace/path-reference';
import { resolveReference } from '../../../src/blend/trace/resolve-reference';
import { writeTree } from '../helpers/scene-folder';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-bakes-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A bake of a Geometry Nodes modifier kept in its modifier's folder, as the collector reports it. */
function bake(stored: string, id: string, options: Partial<PathReference> = {}): PathReference {
  return {
    kind: 'geometry-nodes-bake',
    owner: 'Baked',
    stored,
    packed: false,
    shape: 'directory',
    required: true,
    subfolder: id,
    slot: { type: 'block', headerOffset: 100, dataOffset: 124, size: 44 },
    ...options,
  };
}

const resolve = (ref: PathReference, holder: string) => resolveReference(ref, holder, { platform: 'posix', sceneDir: join(root, 'proj') });

describe('Geometry Nodes bakes in their modifier\'s folder', () => {
  it('are found in the bake\'s own subfolder, and missing when only another bake of the modifier is there', async () => {
    await writeTree(root, {
      'proj/blendcache_shot/Baked_GN/11/meta/00001_00000.json': '{}',
      'proj/blendcache_shot/Baked_GN/11/blobs/00001_00000.blob': 'b',
    });
    const holder = join(root, 'proj', 'shot.blend');
    const found = await resolve(bake('//blendcache_shot/Baked_GN', '11'), holder);
    expect(found).toMatchObject({ status: 'found', stored: '//blendcache_shot/Baked_GN', subfolder: '11', resolved: join(root, 'proj/blendcache_shot/Baked_GN/11') });
    expect(found.files.map((f) => f.path.slice(root.length + 1)).sort()).toEqual(['proj/blendcache_shot/Baked_GN/11/blobs/00001_00000.blob', 'proj/blendcache_shot/Baked_GN/11/meta/00001_00000.json']);
    const gone = await resolve(bake('//blendcache_shot/Baked_GN', '22'), holder);
    expect(gone).toMatchObject({ status: 'missing', required: true, resolved: join(root, 'proj/blendcache_shot/Baked_GN/22') });
    expect(gone.problem).toBe(
      `The geometry nodes bake "Baked" in shot.blend uses //blendcache_shot/Baked_GN, which is not on this computer (looked for ${join(root, 'proj/blendcache_shot/Baked_GN/22')}).`,
    );
    const neverBaked = await resolve(bake('//blendcache_shot/Baked_GN', '33', { required: false }), holder);
    expect(neverBaked).toMatchObject({ status: 'missing', required: false });
  });

  it('point the modifier\'s folder into the bundle, once for all its bakes, from wherever the holder goes', async () => {
    await writeTree(root, {
      'proj/caches/Baked_GN/11/meta/00001_00000.json': '{}',
      'proj/caches/Baked_GN/22/meta/00001_00000.json': '{}',
      'outside/Baked_GN/33/meta/00001_00000.json': '{}',
    });
    const scene = join(root, 'proj', 'shot.blend');
    const library = join(root, 'proj', 'set.blend');
    const layout = new BundleLayout(scene, [scene, library], 'posix');
    const fromLibrary: Dependency[] = [await resolve(bake('//caches/Baked_GN', '11'), library), await resolve(bake('//caches/Baked_GN', '22'), library)];
    expect(fromLibrary.map((d) => bundlePathOf(d, layout))).toEqual(['caches/Baked_GN', 'caches/Baked_GN']);
    const patches = rewritePatches(fromLibrary, layout.entryOf(library), layout, { littleEndian: true, blockHeaderSize: 24 });
    const written = patches.filter((p) => p.offset === 124).map((p) => Buffer.from(p.data, 'base64').toString('utf8').replace(/\0+$/, ''));
    expect(written).toEqual(['//../caches/Baked_GN']);

    const outside = await resolve(bake(join(root, 'outside', 'Baked_GN'), '33'), scene);
    expect(bundlePathOf(outside, layout)).toBe(`_external${join(root, 'outside', 'Baked_GN')}`);
    const fromScene = rewritePatches([outside], layout.entryOf(scene), layout, { littleEndian: true, blockHeaderSize: 24 });
    expect(fromScene.filter((p) => p.offset === 124).map((p) => Buffer.from(p.data, 'base64').toString('utf8').replace(/\0+$/, ''))).toEqual([
      `//_external${join(root, 'outside', 'Baked_GN')}`,
    ]);
  });

  it('need nothing on disk when packed into the .blend', async () => {
    const packed = await resolve(bake('//blendcache_shot/Baked_GN', '44', { packed: true }), join(root, 'proj', 'shot.blend'));
    expect(packed).toMatchObject({ status: 'packed', files: [], problem: null });
  });
});
