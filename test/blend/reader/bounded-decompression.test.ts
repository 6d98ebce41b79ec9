import { mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBlendContent } from '../../../src/blend/reader/inflate/blend-content-check';
import { BlendFileError } from '../../../src/blend/reader/blend-file-error';
import { BlendTooLargeError, ContentGuard } from '../../../src/blend/reader/inflate/content-guard';
import { compressedContent, openByteSource } from '../../../src/blend/reader/open-byte-source';
import { BLEND_HEADER, MIB, writeUnderstatedZstd, writeZstdWithoutTable } from '../helpers/blend-bombs';
import { SyntheticBlend } from '../helpers/synthetic-blend';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-bounded-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A legacy 64-bit little-endian block header. */
function block(code: string, length: number): Buffer {
  const b = Buffer.alloc(24);
  b.write(code.padEnd(4, '\0'), 0, 'latin1');
  b.writeInt32LE(length, 4);
  b.writeInt32LE(1, 20);
  return b;
}

const blendWithData = (dataBytes: number) => Buffer.concat([BLEND_HEADER, block('DATA', dataBytes), Buffer.alloc(dataBytes), block('ENDB', 0)]);

function errorOf(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe('ContentGuard', () => {
  it('refuses content that is not a .blend at its first bytes', () => {
    const guard = new ContentGuard('/x/notes.blend', 1024);
    expect(errorOf(() => guard.check(Buffer.from('PK\x03\x04')))).toMatchObject({ code: 'not-blend' });
  });

  it('refuses a .blend header followed by zeros at its first block', () => {
    const guard = new ContentGuard('/x/zeros.blend', 1024 ** 3);
    guard.check(BLEND_HEADER);
    expect(errorOf(() => guard.check(Buffer.alloc(64 * 1024)))).toMatchObject({ code: 'corrupt', message: expect.stringContaining('byte 12') });
    expect(guard.bytes).toBe(BLEND_HEADER.length + 64 * 1024);
  });

  it('passes a real .blend through, fed byte by byte, and lets bytes after ENDB by', () => {
    const bytes = Buffer.concat([new SyntheticBlend().build(), Buffer.from('trailing')]);
    const guard = new ContentGuard('/x/real.blend', bytes.length);
    for (let i = 0; i < bytes.length; i++) guard.check(bytes.subarray(i, i + 1));
    guard.end();
    expect(guard.bytes).toBe(bytes.length);
  });

  it('refuses the first byte past the limit, and a block that claims to run past it', () => {
    const bytes = blendWithData(4096);
    const counted = new ContentGuard('/x/big.blend', bytes.length - 1);
    expect(errorOf(() => counted.check(bytes))).toBeInstanceOf(BlendTooLargeError);
    const claimed = new ContentGuard('/x/claims.blend', 1024);
    expect(errorOf(() => claimed.check(Buffer.concat([BLEND_HEADER, block('DATA', 1 << 30)])))).toBeInstanceOf(BlendTooLargeError);
  });

  it('refuses content that ends inside its header', () => {
    const guard = new ContentGuard('/x/short.blend', 1024);
    guard.check(Buffer.from('BLEN'));
    expect(errorOf(() => guard.end())).toMatchObject({ code: 'truncated' });
  });
});

describe('openByteSource, bounded', () => {
  it('stops a zstd frame at the size its seek table claims', async () => {
    const path = join(dir, 'understated.blend');
    await writeUnderstatedZstd(path, 32 * MIB, 4096);
    const source = await openByteSource(path);
    try {
      await expect(source.read(0, 16)).rejects.toMatchObject({ code: 'corrupt', message: expect.stringContaining('does not match its own index') });
      const chunks: Buffer[] = [];
      await expect(
        (async () => {
          for await (const chunk of source.stream()) chunks.push(chunk as Buffer);
        })(),
      ).rejects.toBeInstanceOf(BlendFileError);
      expect(chunks.reduce((n, c) => n + c.length, 0)).toBeLessThanOrEqual(4096);
    } finally {
      await source.close();
    }
  });

  it('refuses a seek table that claims more than the limit before unpacking anything', async () => {
    const path = join(dir, 'claims-big.blend');
    await writeUnderstatedZstd(path, 1024, 8 * MIB);
    await expect(openByteSource(path, { maxContentBytes: 4 * MIB })).rejects.toBeInstanceOf(BlendTooLargeError);
  });

  it('writes no temporary copy of a gzip or zstd file that is not a .blend within the limit', async () => {
    const temp = await mkdtemp(join(dir, 'temp-'));
    const zeros = join(dir, 'zeros.blend');
    await writeFile(zeros, gzipSync(Buffer.concat([BLEND_HEADER, Buffer.alloc(8 * MIB)])));
    await expect(openByteSource(zeros, { tempDir: temp })).rejects.toMatchObject({ code: 'corrupt' });
    const text = join(dir, 'text.blend');
    await writeFile(text, gzipSync(Buffer.from('not a scene at all')));
    await expect(openByteSource(text, { tempDir: temp })).rejects.toMatchObject({ code: 'not-blend' });
    const frames = join(dir, 'frames.blend');
    await writeZstdWithoutTable(frames, 1);
    await expect(openByteSource(frames, { tempDir: temp })).rejects.toMatchObject({ code: 'corrupt' });
    const large = join(dir, 'large.blend');
    await writeFile(large, gzipSync(blendWithData(2 * MIB)));
    await expect(openByteSource(large, { tempDir: temp, maxContentBytes: MIB })).rejects.toBeInstanceOf(BlendTooLargeError);
    expect(await readdir(temp)).toEqual([]);
    const opened = await openByteSource(large, { tempDir: temp, maxContentBytes: 4 * MIB });
    expect(opened.size).toBe(blendWithData(2 * MIB).length);
    await opened.close();
    expect(await readdir(temp)).toEqual([]);
  });
});

describe('checkBlendContent', () => {
  it('tells a .blend within the limit from one that is not, too large or damaged, writing nothing', async () => {
    const write = async (name: string, bytes: Buffer) => {
      await writeFile(join(dir, name), bytes);
      return join(dir, name);
    };
    const real = blendWithData(MIB);
    expect(await checkBlendContent(await write('plain.blend', real), 2 * MIB)).toEqual({ ok: true, compression: 'none', bytes: real.length });
    expect(await checkBlendContent(await write('zstd.blend', zstdCompressSync(real)), 2 * MIB)).toEqual({ ok: true, compression: 'zstd', bytes: real.length });
    expect(await checkBlendContent(await write('gzip.blend', gzipSync(real)), MIB)).toEqual({ ok: false, problem: 'too-large' });
    expect(await checkBlendContent(await write('text.blend', gzipSync(Buffer.from('hello'))), MIB)).toEqual({ ok: false, problem: 'not-blend' });
    const understated = join(dir, 'check-understated.blend');
    await writeUnderstatedZstd(understated, 16 * MIB, 4096);
    expect(await checkBlendContent(understated, 1024 ** 3)).toEqual({ ok: false, problem: 'damaged' });
  });
});

describe('compressed content read late', () => {
  it('a cut-short gzip file left unread for a while fails when read, not as an uncaught error', async () => {
    const path = join(dir, 'cut-short.blend');
    const whole = gzipSync(blendWithData(1024));
    await writeFile(path, whole.subarray(0, whole.length - 40));
    const handle = await open(path, 'r');
    const { content } = await compressedContent(path, handle, whole.length - 40, 'gzip');
    await handle.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(
      (async () => {
        for await (const chunk of content) void chunk;
      })(),
    ).rejects.toThrow(/unexpected end/i);
  });

  it('opening a cut-short gzip .blend fails naming the file as cut short', async () => {
    const path = join(dir, 'cut-short-open.blend');
    const whole = gzipSync(blendWithData(256 * 1024));
    await writeFile(path, whole.subarray(0, whole.length - 40));
    await expect(openByteSource(path, { tempDir: dir })).rejects.toMatchObject({ code: 'truncated' });
  });
});
