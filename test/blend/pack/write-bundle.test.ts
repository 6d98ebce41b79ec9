import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { zstdCompressSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import { PackError, writeBundle, type PackProgress } from '../../../src/blend/pack/write-bundle';
import { hashTree, readZip, writeTree } from '../helpers/scene-folder';
import { SyntheticBlend } from '../helpers/synthetic-blend';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-bundle-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(5000, 3)]);

/** A scene in `root/proj` using files inside, beside and far from its folder, and a library at its top. */
async function makeScene(options: { compressLibrary?: boolean } = {}): Promise<string> {
  const scene = new SyntheticBlend();
  scene.addImage({ name: 'Grid', path: '//textures/grid.png' });
  scene.addImage({ name: 'Shared', path: '//../shared/hdri.png' });
  scene.addImage({ name: 'Abs', path: join(root, 'abs', 'metal.png') });
  scene.addImage({ name: 'Frames', path: '//seq/frame_0001.png', source: 2 });
  scene.addImage({ name: 'Missing', path: '//textures/nope.png' });
  scene.addLibrary({ name: 'props.blend', path: '//props.blend' });
  const props = new SyntheticBlend({ pointerSize: 4, littleEndian: false });
  props.addImage({ name: 'Wood', path: '//textures/wood.png' });
  props.addImage({ name: 'Far', path: '//../shared/far.tga' });
  const library = props.build();
  await writeTree(root, {
    'proj/shot.blend': scene.build(),
    'proj/props.blend': options.compressLibrary ? Buffer.concat([zstdCompressSync(library.subarray(0, 500)), zstdCompressSync(library.subarray(500))]) : library,
    'proj/textures/grid.png': png,
    'proj/textures/wood.png': png,
    'proj/notes.txt': 'not needed',
    'proj/seq/frame_0001.png': png,
    'proj/seq/frame_0002.png': png,
    'shared/hdri.png': png,
    'shared/far.tga': Buffer.alloc(3000, 'a'),
    'abs/metal.png': png,
  });
  return join(root, 'proj', 'shot.blend');
}


async function extract(zipPath: string, dest: string): Promise<void> {
  for (const entry of await readZip(zipPath)) {
    await mkdir(dirname(join(dest, entry.name)), { recursive: true });
    await writeFile(join(dest, entry.name), entry.data);
  }
}

describe('writeBundle', () => {
  it.each([false, true])('writes a bundle that holds everything the scene needs and points there (library compressed: %s)', async (compressLibrary) => {
    const scenePath = await makeScene({ compressLibrary });
    const before = await hashTree(root);
    const plan = await traceScene(scenePath);
    const out = join(root, 'out', 'bundle.zip');
    await mkdir(dirname(out));
    const events: PackProgress[] = [];
    const result = await writeBundle(plan, out, { onProgress: (p) => events.push(p), progressIntervalMs: 0 });

    const entries = await readZip(out);
    expect(entries.map((e) => e.name)).toEqual(plan.entries.map((e) => e.name));
    expect(entries[0]!.name).toBe('shot.blend');
    expect(entries.filter((e) => e.name.endsWith('.blend') && !e.name.includes('/')).map((e) => e.name)).toEqual(['shot.blend']);
    const method = Object.fromEntries(entries.map((e) => [e.name, e.method]));
    expect(method['shot.blend']).toBe(8);
    expect(method['textures/grid.png']).toBe(0);
    expect(method[`_external${join(root, 'shared/far.tga')}`]).toBe(8);
    expect(entries.find((e) => e.name === 'textures/grid.png')!.data.equals(png)).toBe(true);
    expect(result.bytes).toBe((await stat(out)).size);

    const unpacked = join(root, 'unpacked');
    await extract(out, unpacked);
    const again = await traceScene(join(unpacked, 'shot.blend'));
    expect(again.missing.map((d) => d.owner)).toEqual(['Missing']);
    expect(again.dependencies.filter((d) => d.status === 'found').every((d) => d.resolved!.startsWith(unpacked))).toBe(true);
    expect(again.dependencies.filter((d) => d.status === 'found')).toHaveLength(plan.dependencies.filter((d) => d.status === 'found').length);
    expect(again.blends.every((b) => b.patches.length === 0)).toBe(true);
    expect(again.entries.map((e) => e.name).sort()).toEqual(plan.entries.map((e) => e.name).sort());

    expect(events.at(-1)).toMatchObject({ done: true, bytesDone: plan.totalBytes, filesDone: plan.entries.length, entry: null });
    expect(events.every((e, i) => i === 0 || e.bytesDone >= events[i - 1]!.bytesDone)).toBe(true);
    expect(await hashTree(root)).toMatchObject(before);
  });

  it('gives the same bytes for the same scene, so a pack cut short can be redone identically', async () => {
    const plan = await traceScene(await makeScene());
    const first = await writeBundle(plan, join(root, 'a.zip'));
    const second = await writeBundle(await traceScene(plan.scene), join(root, 'b.zip'), { sha256: true });
    expect((await readFile(join(root, 'a.zip'))).equals(await readFile(join(root, 'b.zip')))).toBe(true);
    expect(first.sha256).toBeNull();
    expect(second.sha256).toBe(createHash('sha256').update(await readFile(join(root, 'b.zip'))).digest('hex'));
  });

  it('stops when asked and leaves no file behind', async () => {
    const plan = await traceScene(await makeScene());
    const controller = new AbortController();
    const out = join(root, 'stopped.zip');
    const promise = writeBundle(plan, out, {
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (p.filesDone >= 2) controller.abort();
      },
    });
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
    expect((await readdir(root)).filter((n) => n.startsWith('stopped'))).toEqual([]);
  });

  it('refuses to write a bundle from files that changed since they were traced', async () => {
    const plan = await traceScene(await makeScene());
    const later = new Date(Date.now() + 60_000);
    await utimes(join(root, 'proj/textures/grid.png'), later, later);
    const out = join(root, 'changed.zip');
    await expect(writeBundle(plan, out)).rejects.toThrow(PackError);
    await expect(writeBundle(plan, out)).rejects.toThrow(/grid\.png changed since the scene was traced/);
    expect((await readdir(root)).filter((n) => n.startsWith('changed'))).toEqual([]);
  });

  it('refuses to overwrite one of the scene\'s own files', async () => {
    const plan = await traceScene(await makeScene());
    await expect(writeBundle(plan, join(root, 'proj/textures/grid.png'))).rejects.toThrow(/one of the scene's own files/);
    expect((await readFile(join(root, 'proj/textures/grid.png'))).equals(png)).toBe(true);
  });
});
