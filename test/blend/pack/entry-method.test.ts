import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryMethod, sampleRanges } from '../../../src/blend/pack/entry-method';
import { writeBundle } from '../../../src/blend/pack/write-bundle';
import { traceScene } from '../../../src/blend/pack/trace-scene';
import { readZip, writeTree } from '../helpers/scene-folder';
import { SyntheticBlend } from '../helpers/synthetic-blend';

const MiB = 1024 * 1024;
const STORED = 0;
const DEFLATED = 8;

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-entry-method-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Text-like bytes that deflate shrinks a lot. */
function compressible(size: number): Buffer {
  const line = Buffer.from('vertex 0.125 0.250 0.500 normal 0 0 1 uv 0.5 0.5\n');
  return Buffer.alloc(size, line);
}

/** Packs the scene at `scenePath` and returns the bundle's bytes and its entries. */
async function pack(scenePath: string, name = 'bundle.zip'): Promise<{ bytes: Buffer; entries: Awaited<ReturnType<typeof readZip>> }> {
  const out = join(root, name);
  await writeBundle(await traceScene(scenePath), out);
  return { bytes: await readFile(out), entries: await readZip(out) };
}

/** A scene with textures beside it and `packed` images. */
async function sceneWith(packed: Buffer[], textures: Record<string, Buffer> = {}): Promise<string> {
  const blend = new SyntheticBlend();
  blend.addImage({ name: 'Albedo', path: '//textures/albedo.tga' });
  for (const name of Object.keys(textures)) blend.addImage({ name, path: `//textures/${name}` });
  await writeTree(join(root, 'proj', 'textures'), textures);
  packed.forEach((data, i) => blend.addImage({ name: `Packed${i}`, path: `//packed_${i}.png`, packed: data }));
  await writeTree(root, { 'proj/shot.blend': blend.build(), 'proj/textures/albedo.tga': compressible(200_000) });
  return join(root, 'proj', 'shot.blend');
}

describe('entryMethod', () => {
  it('stores a file that deflate cannot shrink and deflates one it can, whatever their extension', async () => {
    await writeTree(root, { 'noise.tga': randomBytes(3 * MiB), 'small-noise.bin': randomBytes(70_000), 'mesh.obj': compressible(3 * MiB), 'tiny.txt': 'hello hello hello hello hello hello' });
    expect(await entryMethod(join(root, 'noise.tga'))).toBe('store');
    expect(await entryMethod(join(root, 'small-noise.bin'))).toBe('store');
    expect(await entryMethod(join(root, 'mesh.obj'))).toBe('deflate');
    expect(await entryMethod(join(root, 'tiny.txt'))).toBe('deflate');
  });

  it('stores already-compressed formats without reading them', async () => {
    expect(await entryMethod(join(root, 'not-there.png'))).toBe('store');
    expect(await entryMethod(join(root, 'not-there.MP4'))).toBe('store');
  });

  it('stores an entry whose bytes barely shrink although some of them compress', async () => {
    const data = Buffer.concat([compressible(MiB / 2), randomBytes(7 * MiB)]);
    const read = async (offset: number, length: number) => data.subarray(offset, offset + length);
    expect(await entryMethod('x.blend', { size: data.length, read })).toBe('store');
    const mostlyText = Buffer.concat([randomBytes(MiB), compressible(7 * MiB)]);
    expect(await entryMethod('x.blend', { size: mostlyText.length, read: async (o, l) => mostlyText.subarray(o, o + l) })).toBe('deflate');
  });
});

describe('sampleRanges', () => {
  it('samples a small entry whole and a large one at fixed offsets from its first byte to its last', () => {
    expect(sampleRanges(5000)).toEqual([{ offset: 0, length: 5000 }]);
    const size = 100 * MiB + 7;
    const ranges = sampleRanges(size);
    expect(ranges.length).toBeGreaterThan(4);
    expect(ranges[0]!.offset).toBe(0);
    expect(ranges.at(-1)!.offset + ranges.at(-1)!.length).toBe(size);
    expect(sampleRanges(size)).toEqual(ranges);
  });

  it('never samples a replaced range', () => {
    const size = 64 * MiB;
    const replaced = sampleRanges(size).flatMap((r) => [{ offset: r.offset + 100, length: 200 }, { offset: r.offset + r.length - 10, length: 30 }]);
    const ranges = sampleRanges(size, replaced);
    for (const range of ranges) {
      expect(range.length).toBeGreaterThan(0);
      for (const cut of replaced) expect(range.offset + range.length <= cut.offset || cut.offset + cut.length <= range.offset).toBe(true);
    }
    const sampled = ranges.reduce((n, r) => n + r.length, 0);
    const whole = sampleRanges(size).reduce((n, r) => n + r.length, 0);
    expect(sampled).toBe(whole - sampleRanges(size).length * 210);
  });
});

describe('writeBundle picks each entry\'s method from its content', () => {
  it('deflates a plain .blend and stores a .blend dominated by packed noise', async () => {
    const plain = await pack(await sceneWith([]), 'plain.zip');
    expect(plain.entries.find((e) => e.name === 'shot.blend')!.method).toBe(DEFLATED);
    expect(plain.entries.find((e) => e.name === 'textures/albedo.tga')!.method).toBe(DEFLATED);

    const noise = [randomBytes(3 * MiB), randomBytes(2 * MiB)];
    const scenePath = await sceneWith(noise);
    const packed = await pack(scenePath, 'packed.zip');
    const blend = packed.entries.find((e) => e.name === 'shot.blend')!;
    expect(blend.method).toBe(STORED);
    for (const data of noise) expect(blend.data.includes(data)).toBe(true);
    expect(blend.data.includes(Buffer.from('//textures/albedo.tga'))).toBe(true);
  });

  it('deflates a .blend whose packed data compresses', async () => {
    const { entries } = await pack(await sceneWith([compressible(4 * MiB)]));
    expect(entries.find((e) => e.name === 'shot.blend')!.method).toBe(DEFLATED);
  });

  it('writes the same bytes for the same input', async () => {
    const scenePath = await sceneWith([randomBytes(3 * MiB)], { 'noise.tga': randomBytes(2 * MiB), 'mesh.obj': compressible(MiB) });
    const first = await pack(scenePath, 'first.zip');
    const second = await pack(scenePath, 'second.zip');
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(first.entries.map((e) => [e.name, e.method])).toEqual([
      ['shot.blend', STORED],
      ['textures/albedo.tga', DEFLATED],
      ['textures/mesh.obj', DEFLATED],
      ['textures/noise.tga', STORED],
    ]);
  });
});
