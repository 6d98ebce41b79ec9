import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlendFile } from '../../../src/blend/reader/blend-file';
import { BlendFileError } from '../../../src/blend/reader/blend-file-error';
import { collectReferences } from '../../../src/blend/trace/collect-references';
import { SyntheticBlend, type SyntheticOptions } from '../helpers/synthetic-blend';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-blend-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function written(name: string, bytes: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

function sample(options: SyntheticOptions): SyntheticBlend {
  const blend = new SyntheticBlend(options);
  blend.addImage({ name: 'Wood', path: '//textures/wood.png' });
  blend.addImage({ name: 'Tiles', path: '//udim/t.<UDIM>.png', source: 6, tiles: [1001, 1002, 1011] });
  blend.addImage({ name: 'Logo', path: '//logo.png', packed: true });
  blend.addImage({ name: 'Linked', path: '//never.png', linked: true });
  blend.addLibrary({ name: 'props.blend', path: '//../lib/props.blend' });
  return blend;
}

const VARIANTS: [string, SyntheticOptions][] = [
  ['8-byte pointers, little-endian', { pointerSize: 8, littleEndian: true }],
  ['8-byte pointers, big-endian', { pointerSize: 8, littleEndian: false }],
  ['4-byte pointers, little-endian', { pointerSize: 4, littleEndian: true }],
  ['4-byte pointers, big-endian', { pointerSize: 4, littleEndian: false }],
  ['the 17-byte header of Blender 5.0 with large block headers', { format: 1 }],
];

describe('BlendFile reads files of every header form, pointer size and byte order', () => {
  it.each(VARIANTS)('%s', async (label, options) => {
    const path = await written(`${label.replace(/\W+/g, '-')}.blend`, sample(options).build());
    const file = await BlendFile.open(path);
    try {
      expect(file.header.pointerSize).toBe(options.format === 1 ? 8 : options.pointerSize);
      expect(file.header.littleEndian).toBe(options.format === 1 ? true : options.littleEndian);
      expect(file.header.version).toBe(options.format === 1 ? 500 : 304);
      expect(file.sdna.struct('Image')?.field('name')?.size).toBe(1024);
      const refs = await collectReferences(file);
      expect(refs.map((r) => [r.kind, r.owner, r.stored, r.shape, r.packed])).toEqual([
        ['image', 'Wood', '//textures/wood.png', 'file', false],
        ['image', 'Tiles', '//udim/t.<UDIM>.png', 'udim', false],
        ['image', 'Logo', '//logo.png', 'file', true],
        ['library', 'props.blend', '//../lib/props.blend', 'file', false],
      ]);
      expect(refs[1]!.tiles).toEqual([1001, 1002, 1011]);
      const slot = refs[0]!.slot;
      expect(slot?.type).toBe('fixed');
      if (slot?.type === 'fixed') {
        const bytes = await file.source.read(slot.offset, slot.size);
        expect(bytes.subarray(0, 19).toString()).toBe('//textures/wood.png');
        expect(slot.size).toBe(1024);
      }
    } finally {
      await file.close();
    }
  });
});

describe('BlendFile reads compressed files without holding them whole', () => {
  const plain = sample({}).build();

  it('reads a gzip file (Blender before 3.0)', async () => {
    const file = await BlendFile.open(await written('gzip.blend', gzipSync(plain)));
    expect(file.compression).toBe('gzip');
    expect(file.size).toBe(plain.length);
    expect((await collectReferences(file)).map((r) => r.stored)).toContain('//textures/wood.png');
    await file.close();
  });

  it('reads a zstd file of several frames without a seek table, and streams all of its frames', async () => {
    const frames = [plain.subarray(0, 1000), plain.subarray(1000, 3000), plain.subarray(3000)].map((part) => zstdCompressSync(part));
    const file = await BlendFile.open(await written('zstd-frames.blend', Buffer.concat(frames)));
    expect(file.compression).toBe('zstd');
    expect(file.size).toBe(plain.length);
    expect((await collectReferences(file)).map((r) => r.stored)).toContain('//../lib/props.blend');
    const chunks: Buffer[] = [];
    for await (const chunk of file.source.stream()) chunks.push(chunk as Buffer);
    expect(Buffer.compare(Buffer.concat(chunks), plain)).toBe(0);
    await file.close();
  });

  it('reads a zstd file through the seek table Blender appends', async () => {
    const parts = [plain.subarray(0, 2000), plain.subarray(2000)];
    const frames = parts.map((part) => zstdCompressSync(part));
    const table = Buffer.alloc(8 + parts.length * 8 + 9);
    table.writeUInt32LE(0x184d2a5e, 0);
    table.writeUInt32LE(table.length - 8, 4);
    parts.forEach((part, i) => {
      table.writeUInt32LE(frames[i]!.length, 8 + i * 8);
      table.writeUInt32LE(part.length, 12 + i * 8);
    });
    table.writeUInt32LE(parts.length, table.length - 9);
    table.writeUInt32LE(0x8f92eab1, table.length - 4);
    const file = await BlendFile.open(await written('zstd-seekable.blend', Buffer.concat([...frames, table])));
    expect(file.size).toBe(plain.length);
    const across = await file.source.read(1990, 20);
    expect(Buffer.compare(across, plain.subarray(1990, 2010))).toBe(0);
    await file.close();
  });
});

describe('BlendFile refuses bad input with a message naming the file', () => {
  const plain = sample({}).build();
  const cases: [string, Buffer, string, RegExp][] = [
    ['notes.blend', Buffer.from('these are my notes, not a scene\n'.repeat(10)), 'not-blend', /notes\.blend is not a Blender file/],
    ['empty.blend', Buffer.alloc(0), 'truncated', /empty\.blend is incomplete/],
    ['cut.blend', plain.subarray(0, Math.floor(plain.length / 2)), 'truncated', /cut\.blend is incomplete/],
    ['header-only.blend', plain.subarray(0, 12), 'truncated', /header-only\.blend is incomplete/],
    ['future.blend', Buffer.concat([Buffer.from('BLENDER99-07v0900'), plain.subarray(12)]), 'unsupported', /future\.blend was saved in a \.blend format/],
    ['noise.blend', Buffer.concat([plain.subarray(0, 12), Buffer.alloc(64, 0xff)]), 'corrupt', /noise\.blend is damaged/],
    ['bad-zstd.blend', Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(40, 7)]), 'corrupt', /bad-zstd\.blend is damaged/],
    ['bad-gzip.blend', gzipSync(plain).subarray(0, 200), 'truncated', /bad-gzip\.blend is incomplete/],
  ];
  it.each(cases)('%s', async (name, bytes, code, message) => {
    const path = await written(name, bytes);
    const error = await BlendFile.open(path).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BlendFileError);
    expect((error as BlendFileError).code).toBe(code);
    expect((error as BlendFileError).message).toMatch(message);
    expect((error as BlendFileError).path).toBe(path);
  });

  it('says a folder is not a .blend and a missing file does not exist', async () => {
    await expect(BlendFile.open(dir)).rejects.toMatchObject({ code: 'not-a-file' });
    await expect(BlendFile.open(join(dir, 'nope.blend'))).rejects.toMatchObject({ code: 'not-found', message: expect.stringContaining('nope.blend does not exist') });
  });
});
