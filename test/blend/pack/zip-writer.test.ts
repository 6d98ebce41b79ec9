import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { exrIsCompressed } from '../../../src/blend/pack/entry-method';
import { deflateBound, ZipWriter, zipSizeBound } from '../../../src/blend/pack/zip-writer';
import { readZip } from '../helpers/scene-folder';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-zip-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function zipOf(entries: { name: string; data: Buffer; deflate: boolean; expectedSize?: number }[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const zip = new ZipWriter({ write: async (c) => void chunks.push(Buffer.from(c)) });
  for (const e of entries) {
    await zip.addEntry(e.name, Readable.from([e.data.subarray(0, 7), e.data.subarray(7)]), {
      method: e.deflate ? 'deflate' : 'store',
      expectedSize: e.expectedSize ?? e.data.length,
      compress: (raw) => Readable.from(raw).pipe(createDeflateRaw()),
    });
  }
  await zip.finish();
  return Buffer.concat(chunks);
}

describe('ZipWriter', () => {
  const entries = [
    { name: 'shot.blend', data: Buffer.alloc(20_000, 'blend'), deflate: true },
    { name: 'textures/größe ñ.png', data: Buffer.from('not really a png'), deflate: false },
    { name: 'empty.txt', data: Buffer.alloc(0), deflate: true },
    { name: 'big/as-zip64.bin', data: Buffer.from('expected to be huge'), deflate: false, expectedSize: 5 * 1024 ** 3 },
  ];

  it('writes zips that yauzl reads back (UTF-8 names, stored, deflated, ZIP64 fields)', async () => {
    const bytes = await zipOf(entries);
    const path = join(dir, 'a.zip');
    await writeFile(path, bytes);
    const read = await readZip(path);
    expect(read.map((e) => [e.name, e.method, e.data.toString()])).toEqual(entries.map((e) => [e.name, e.deflate ? 8 : 0, e.data.toString()]));
  });

  it('gives the same bytes for the same entries', async () => {
    expect((await zipOf(entries)).equals(await zipOf(entries))).toBe(true);
  });

  it('writes the ZIP64 end records when there are more than 65535 entries', async () => {
    const many = Array.from({ length: 65_540 }, (_, i) => ({ name: `f/${i}`, data: Buffer.from(String(i)), deflate: false }));
    const path = join(dir, 'many.zip');
    await writeFile(path, await zipOf(many));
    const count = await new Promise<number>((resolve, reject) =>
      yauzl.open(path, { lazyEntries: true }, (error, zip) => {
        if (error || !zip) return reject(error ?? new Error('no zip'));
        resolve(zip.entryCount);
        zip.close();
      }),
    );
    expect(count).toBe(65_540);
  });
});

describe('exrIsCompressed', () => {
  function exr(compression: number): Buffer {
    const attr = (name: string, type: string, value: Buffer) => {
      const size = Buffer.alloc(4);
      size.writeInt32LE(value.length);
      return Buffer.concat([Buffer.from(`${name}\0${type}\0`), size, value]);
    };
    const head = Buffer.from([0x76, 0x2f, 0x31, 0x01, 2, 0, 0, 0]);
    return Buffer.concat([head, attr('channels', 'chlist', Buffer.alloc(19)), attr('compression', 'compression', Buffer.from([compression])), Buffer.from([0])]);
  }
  it('reads the compression attribute', () => {
    expect(exrIsCompressed(exr(0))).toBe(false);
    expect(exrIsCompressed(exr(3))).toBe(true);
    expect(exrIsCompressed(Buffer.from('not an exr'))).toBeNull();
  });
});

describe('zipSizeBound', () => {
  it('is never below the zip written, whatever deflate makes of the data, and close to it for stored data', async () => {
    const sets = [
      [
        { name: 'shot.blend', data: randomBytes(300_000), deflate: true },
        { name: 'textures/größe ñ.png', data: randomBytes(70_000), deflate: false },
        { name: 'empty.txt', data: Buffer.alloc(0), deflate: true },
        { name: 'cache/fluid_data_0001.uni', data: Buffer.alloc(200_000, 'fluid'), deflate: true },
      ],
      [{ name: 'big/as-zip64.bin', data: randomBytes(1000), deflate: true, expectedSize: 5 * 1024 ** 3 }],
      Array.from({ length: 300 }, (_, i) => ({ name: `seq/frame_${String(i).padStart(4, '0')}.png`, data: randomBytes(i * 7), deflate: false })),
    ];
    for (const entries of sets) {
      const written = (await zipOf(entries)).length;
      const bound = zipSizeBound(entries.map((e) => ({ name: e.name, size: e.data.length, mayDeflate: e.deflate })));
      expect(bound).toBeGreaterThanOrEqual(written);
      if (entries.every((e) => !e.deflate)) expect(bound - written).toBeLessThanOrEqual(entries.length * 200 + 100);
    }
  });

  it('bounds raw deflate of data that does not compress', () => {
    for (const size of [0, 1, 1000, 65_536, 1_000_000]) {
      const data = randomBytes(size);
      expect(deflateBound(size), `${size} bytes`).toBeGreaterThanOrEqual(deflateRawSync(data).length);
    }
  });
});

