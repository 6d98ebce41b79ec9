import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBlendFileHead, readBlendFileHead } from '../../../src/blend/reader/blend-file-head';

const bytes = (text: string, padding = 64) => Buffer.concat([Buffer.from(text, 'latin1'), Buffer.alloc(padding, 0x41)]);

describe('parseBlendFileHead', () => {
  it('reads the classic 12-byte header', () => {
    expect(parseBlendFileHead(bytes('BLENDER-v304REND'))).toEqual({
      compression: 'none',
      format: 'legacy',
      pointerSize: 8,
      endianness: 'little',
      version: '3.4',
      versionNumber: 304,
    });
    expect(parseBlendFileHead(bytes('BLENDER_V279'))).toMatchObject({ pointerSize: 4, endianness: 'big', version: '2.79' });
  });

  it('reads the large header of Blender 5', () => {
    expect(parseBlendFileHead(bytes('BLENDER17-01v0500'))).toEqual({
      compression: 'none',
      format: 'large',
      pointerSize: 8,
      endianness: 'little',
      version: '5.0',
      versionNumber: 500,
    });
    expect(parseBlendFileHead(bytes('BLENDER17-01v0501'))).toMatchObject({ version: '5.1' });
    expect(parseBlendFileHead(bytes('BLENDER18-02V0600'))).toMatchObject({ format: 'large', endianness: 'big', version: '6.0' });
    expect(parseBlendFileHead(bytes('BLENDER?unknown'))).toMatchObject({ compression: 'none', format: null, version: null });
  });

  it('inflates a gzip-compressed head, even a truncated one', () => {
    const whole = gzipSync(Buffer.concat([Buffer.from('BLENDER-v279'), Buffer.alloc(200_000, 7)]));
    expect(parseBlendFileHead(whole)).toMatchObject({ compression: 'gzip', version: '2.79', pointerSize: 8 });
    expect(parseBlendFileHead(whole.subarray(0, 100))).toMatchObject({ compression: 'gzip', version: '2.79' });
  });

  it.skipIf(typeof zlib.zstdCompressSync !== 'function')('reads the head of a zstd file (Blender 3.0+ compression) from its first frame', () => {
    const head = bytes('BLENDER17-01v0502', 300_000);
    const whole = zlib.zstdCompressSync(head);
    expect(parseBlendFileHead(whole)).toMatchObject({ compression: 'zstd', format: 'large', version: '5.2', versionNumber: 502 });
    expect(parseBlendFileHead(zlib.zstdCompressSync(bytes('these are my notes')))).toMatchObject({ compression: 'zstd', version: null });
  });

  it('reports zstd as compressed with an unknown version when its head cannot be decompressed', () => {
    expect(parseBlendFileHead(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0]))).toEqual({
      compression: 'zstd',
      format: null,
      pointerSize: null,
      endianness: null,
      version: null,
      versionNumber: null,
    });
  });

  it('returns null for anything else', () => {
    expect(parseBlendFileHead(bytes('these are my notes'))).toBeNull();
    expect(parseBlendFileHead(Buffer.alloc(0))).toBeNull();
    expect(parseBlendFileHead(gzipSync(Buffer.from('plain text, gzipped')))).toBeNull();
    expect(parseBlendFileHead(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toBeNull();
  });
});

describe('readBlendFileHead', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('reads only the head of a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'blend-header-'));
    dirs.push(dir);
    const file = join(dir, 'a.blend');
    await writeFile(file, Buffer.concat([Buffer.from('BLENDER-V402'), Buffer.alloc(300_000)]));
    expect(await readBlendFileHead(file)).toMatchObject({ version: '4.2', endianness: 'big', pointerSize: 8 });
    const short = join(dir, 'short.blend');
    await writeFile(short, 'BLEN');
    expect(await readBlendFileHead(short)).toBeNull();
  });
});
