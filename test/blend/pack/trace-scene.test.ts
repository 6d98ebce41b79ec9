import { chmod, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { needsPacking } from '../../../src/blend/pack/bundle-plan';
import type { PathReference } from '../../../src/blend/trace/path-reference';
import { resolveReference } from '../../../src/blend/trace/resolve-reference';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import { SyntheticBlend } from '../helpers/synthetic-blend';
import { writeTree } from '../helpers/scene-folder';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-trace-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const png = Buffer.from('89504e470d0a1a0a0000', 'hex');

describe('traceScene', () => {
  it('finds single files, sequences, UDIM tiles and files outside the folder; reports packed, missing and Windows paths', async () => {
    const scene = new SyntheticBlend();
    scene.addImage({ name: 'Grid', path: '//textures/grid.png' });
    scene.addImage({ name: 'Shared', path: '//../shared/hdri.png' });
    scene.addImage({ name: 'Abs', path: join(root, 'abs', 'metal.png') });
    scene.addImage({ name: 'Frames', path: '//seq/frame_0001.png', source: 2 });
    scene.addImage({ name: 'Hashes', path: '//hash/f_###.png' });
    scene.addImage({ name: 'Tiles', path: '//udim/t.<UDIM>.png', source: 6, tiles: [1001, 1002, 1003] });
    scene.addImage({ name: 'Packed', path: '//gone/logo.png', packed: true });
    scene.addImage({ name: 'Drive', path: 'C:\\tex\\wood.png' });
    scene.addImage({ name: 'Unc', path: '\\\\server\\share\\tex.png' });
    scene.addImage({ name: 'Backslashed', path: '//textures\\win.png' });
    scene.addImage({ name: 'Missing', path: '//textures/nope.png' });
    await writeTree(root, {
      'proj/shot.blend': scene.build(),
      'proj/shot.blend1': 'backup',
      'proj/textures/grid.png': png,
      'proj/textures/win.png': png,
      'shared/hdri.png': png,
      'abs/metal.png': png,
      'proj/seq/frame_0001.png': png,
      'proj/seq/frame_0002.png': png,
      'proj/seq/other.png': png,
      'proj/hash/f_001.png': png,
      'proj/hash/f_002.png': png,
      'proj/udim/t.1001.png': png,
      'proj/udim/t.1002.png': png,
    });
    const plan = await traceScene(join(root, 'proj', 'shot.blend'), { platform: 'posix' });
    const byOwner = Object.fromEntries(plan.dependencies.map((d) => [d.owner, d]));
    expect(byOwner.Grid).toMatchObject({ status: 'found', bundlePath: 'textures/grid.png', size: png.length });
    expect(byOwner.Shared).toMatchObject({ status: 'found', bundlePath: `_external${join(root, 'shared', 'hdri.png')}` });
    expect(byOwner.Abs).toMatchObject({ status: 'found', bundlePath: `_external${join(root, 'abs', 'metal.png')}` });
    expect(byOwner.Frames!.files.map((f) => f.path)).toEqual([join(root, 'proj/seq/frame_0001.png'), join(root, 'proj/seq/frame_0002.png')]);
    expect(byOwner.Hashes!.files).toHaveLength(2);
    expect(byOwner.Tiles).toMatchObject({ status: 'found', bundlePath: 'udim/t.<UDIM>.png' });
    expect(byOwner.Tiles!.files).toHaveLength(2);
    expect(byOwner.Packed).toMatchObject({ status: 'packed', files: [] });
    expect(byOwner.Drive).toMatchObject({ status: 'other-system', problem: expect.stringContaining('Windows path') });
    expect(byOwner.Unc).toMatchObject({ status: 'other-system' });
    expect(byOwner.Backslashed).toMatchObject({ status: 'found', bundlePath: 'textures/win.png' });
    expect(byOwner.Missing).toMatchObject({ status: 'missing', problem: expect.stringContaining(join(root, 'proj/textures/nope.png')) });
    expect(plan.missing.map((d) => d.owner).sort()).toEqual(['Drive', 'Missing', 'Unc']);
    expect(plan.entries[0]).toMatchObject({ name: 'shot.blend', blend: 0 });
    expect(plan.entries.map((e) => e.name)).not.toContain('shot.blend1');
    expect(plan.entries.map((e) => e.name).filter((n) => n.endsWith('.blend') && !n.includes('/'))).toEqual(['shot.blend']);
    expect(plan.entries.map((e) => e.name).sort()).toEqual(
      [
        'shot.blend',
        'textures/grid.png',
        'textures/win.png',
        `_external${join(root, 'shared', 'hdri.png')}`,
        `_external${join(root, 'abs', 'metal.png')}`,
        'seq/frame_0001.png',
        'seq/frame_0002.png',
        'hash/f_001.png',
        'hash/f_002.png',
        'udim/t.1001.png',
        'udim/t.1002.png',
      ].sort(),
    );
    expect(needsPacking(plan)).toBe(true);
    expect(plan.blends[0]!.patches.length).toBe(3);
  });

  it('needs no packing when nothing beside the scene is found', async () => {
    const scene = new SyntheticBlend();
    scene.addImage({ name: 'Packed', path: '//logo.png', packed: true });
    scene.addImage({ name: 'Missing', path: '//nope.png' });
    await writeTree(root, { 'shot.blend': scene.build() });
    const plan = await traceScene(join(root, 'shot.blend'));
    expect(needsPacking(plan)).toBe(false);
    expect(plan.entries).toHaveLength(1);
    expect(plan.missing).toHaveLength(1);
  });

  it('says so, without losing anything, when a dependency is a folder, a loop of links or unreadable', async () => {
    const scene = new SyntheticBlend();
    scene.addImage({ name: 'Folder', path: '//textures' });
    scene.addImage({ name: 'Loop', path: '//loop.png' });
    scene.addImage({ name: 'Locked', path: '//locked.png' });
    scene.addImage({ name: 'Fine', path: '//fine.png' });
    await writeTree(root, { 'shot.blend': scene.build(), 'textures/a.png': png, 'fine.png': png, 'locked.png': png });
    await symlink(join(root, 'loop.png'), join(root, 'loop.png'));
    await chmod(join(root, 'locked.png'), 0o000);
    const asRoot = process.getuid?.() === 0;
    const plan = await traceScene(join(root, 'shot.blend'));
    const byOwner = Object.fromEntries(plan.dependencies.map((d) => [d.owner, d]));
    expect(byOwner.Folder).toMatchObject({ status: 'not-a-file', problem: expect.stringContaining('is a folder, not a file') });
    expect(byOwner.Loop).toMatchObject({ status: 'unreadable', problem: expect.stringContaining('loop of symbolic links') });
    if (!asRoot) expect(byOwner.Locked).toMatchObject({ status: 'unreadable', problem: expect.stringContaining('permission denied') });
    expect(byOwner.Fine).toMatchObject({ status: 'found' });
    expect(plan.missing.map((d) => d.owner)).toEqual(expect.arrayContaining(['Folder', 'Loop']));
    expect(plan.entries.map((e) => e.name)).toContain('fine.png');
    await chmod(join(root, 'locked.png'), 0o644);
  });

  it('follows libraries, resolves each library\'s paths from its own folder, and reports a loop once', async () => {
    const a = new SyntheticBlend();
    a.addLibrary({ name: 'b.blend', path: '//libs/b.blend' });
    a.addImage({ name: 'A', path: '//a.png' });
    const b = new SyntheticBlend({ pointerSize: 4, littleEndian: false });
    b.addLibrary({ name: 'a.blend', path: '//../a.blend' });
    b.addLibrary({ name: 'c.blend', path: '//c.blend' });
    b.addImage({ name: 'B', path: '//tex/b.png' });
    const c = new SyntheticBlend({ format: 1 });
    c.addImage({ name: 'C', path: '//../a.png' });
    await writeTree(root, { 'a.blend': a.build(), 'libs/b.blend': b.build(), 'libs/c.blend': c.build(), 'a.png': png, 'libs/tex/b.png': png });
    const plan = await traceScene(join(root, 'a.blend'));
    expect(plan.blends.map((x) => x.entry)).toEqual(['a.blend', 'libs/b.blend', 'libs/c.blend']);
    expect(plan.notes).toEqual([expect.stringMatching(/b\.blend links a\.blend, which links back to it/)]);
    const byOwner = Object.fromEntries(plan.dependencies.map((d) => [d.owner, d]));
    expect(byOwner.B).toMatchObject({ status: 'found', holder: join(root, 'libs/b.blend'), bundlePath: 'libs/tex/b.png' });
    expect(byOwner.C).toMatchObject({ status: 'found', resolved: join(root, 'a.png') });
    expect(plan.entries.map((e) => e.name).sort()).toEqual(['a.blend', 'a.png', 'libs/b.blend', 'libs/c.blend', 'libs/tex/b.png']);
  });

  it('packs a library it cannot read as it is, and says why', async () => {
    const scene = new SyntheticBlend();
    scene.addLibrary({ name: 'broken.blend', path: '//libs/broken.blend' });
    scene.addImage({ name: 'Grid', path: '//grid.png' });
    const broken = new SyntheticBlend().build().subarray(0, 200);
    await writeTree(root, { 'shot.blend': scene.build(), 'libs/broken.blend': broken, 'grid.png': png });
    const plan = await traceScene(join(root, 'shot.blend'));
    expect(plan.blends[1]).toMatchObject({ entry: 'libs/broken.blend', error: expect.stringContaining('broken.blend is incomplete'), patches: [] });
    expect(plan.entries.find((e) => e.name === 'libs/broken.blend')).toMatchObject({ blend: null, size: broken.length });
    expect(plan.missing).toEqual([]);
  });

  it('finds the blendcache folder of point caches kept on disk beside the .blend holding them', async () => {
    await writeTree(root, { 'proj/shot.blend': 'x', 'proj/blendcache_shot/cloth_000001_00.bphys': 'c', 'proj/blendcache_shot/cloth_000002_00.bphys': 'c' });
    const ref: PathReference = { kind: 'point-cache', owner: 'Cloth', stored: '', packed: false, shape: 'blendcache', required: true, slot: null };
    const found = await resolveReference(ref, join(root, 'proj', 'shot.blend'), { platform: 'posix', sceneDir: join(root, 'proj') });
    expect(found).toMatchObject({ status: 'found', required: true, resolved: join(root, 'proj', 'blendcache_shot') });
    expect(found.files).toHaveLength(2);
    const none = await resolveReference(ref, join(root, 'proj', 'other.blend'), { platform: 'posix', sceneDir: join(root, 'proj') });
    expect(none).toMatchObject({ status: 'missing', required: false, problem: expect.stringContaining('not baked') });
  });

  it('moves a library at the top of the scene folder into a subfolder and repoints its relative paths', async () => {
    const scene = new SyntheticBlend();
    scene.addLibrary({ name: 'props.blend', path: '//props.blend' });
    scene.addImage({ name: 'Notes', path: '//_libraries/notes.png' });
    const props = new SyntheticBlend();
    props.addImage({ name: 'Wood', path: '//tex/wood.png' });
    await writeTree(root, { 'shot.blend': scene.build(), 'props.blend': props.build(), 'tex/wood.png': png, '_libraries/notes.png': png, '_libraries/unused.txt': 'x' });
    const plan = await traceScene(join(root, 'shot.blend'));
    expect(plan.blends.map((b) => b.entry)).toEqual(['shot.blend', '_libraries-2/props.blend']);
    const [scenePatches, propsPatches] = plan.blends.map((b) => b.patches.map((p) => Buffer.from(p.data, 'base64').toString('utf8').replace(/\0+$/, '')));
    expect(scenePatches).toEqual(['//_libraries-2/props.blend']);
    expect(propsPatches).toEqual(['//../tex/wood.png']);
    expect(plan.entries.map((e) => e.name)).toEqual(['shot.blend', '_libraries-2/props.blend', '_libraries/notes.png', 'tex/wood.png']);
  });

  it('leaves out a cache folder that is the scene folder or above it, and packs one of its own', async () => {
    await writeTree(root, { 'proj/shot.blend': 'x', 'proj/cache/a.bphys': 'a', 'proj/cache/sub/b.bphys': 'b', 'proj/cache/old.blend1': 'o' });
    const holder = join(root, 'proj', 'shot.blend');
    const options = { platform: 'posix' as const, sceneDir: join(root, 'proj') };
    const ref = (stored: string): PathReference => ({ kind: 'ocean-cache', owner: 'Ocean', stored, packed: false, shape: 'directory', required: true, slot: null });
    expect(await resolveReference(ref('//'), holder, options)).toMatchObject({ status: 'skipped', problem: expect.stringContaining("the scene's own folder") });
    expect(await resolveReference(ref('//..'), holder, options)).toMatchObject({ status: 'skipped' });
    const own = await resolveReference(ref('//cache/'), holder, options);
    expect(own.status).toBe('found');
    expect(own.files.map((f) => f.path)).toEqual([join(root, 'proj/cache/a.bphys'), join(root, 'proj/cache/sub/b.bphys')]);
    expect(await resolveReference(ref('//none/'), holder, options)).toMatchObject({ status: 'missing' });
  });
});
