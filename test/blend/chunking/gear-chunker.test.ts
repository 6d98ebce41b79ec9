import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHUNKING } from '../../../src/shared/api';
import { describeFile, GearChunker } from '../../../src/blend/chunking';

/** Pseudo-random bytes from a seed (the same every run). */
function seeded(size: number, seed: string): Buffer {
  const out = Buffer.alloc(size);
  for (let at = 0, n = 0; at < size; n++) at += createHash('sha256').update(`${seed}:${n}`).digest().copy(out, at);
  return out;
}

function sizesOf(data: Buffer, pieces: number[] = [data.length]): number[] {
  const chunker = new GearChunker();
  const ends: number[] = [];
  let at = 0;
  for (let i = 0; at < data.length; i++) {
    const size = Math.min(pieces[i % pieces.length]!, data.length - at);
    for (const cut of chunker.cuts(data.subarray(at, at + size))) ends.push(at + cut);
    at += size;
  }
  const last = chunker.finish();
  if (last > 0) ends.push(data.length);
  return ends.map((end, i) => end - (i === 0 ? 0 : ends[i - 1]!));
}

function hashesOf(data: Buffer): string[] {
  let at = 0;
  return sizesOf(data).map((size) => {
    const hash = createHash('sha256').update(data.subarray(at, at + size)).digest('hex');
    at += size;
    return hash;
  });
}

describe('GearChunker', () => {
  const data = seeded(4 * 1024 * 1024, 'chunker');

  it('cuts the same bytes at the same places, however they are fed', () => {
    const whole = sizesOf(data);
    expect(sizesOf(data)).toEqual(whole);
    expect(sizesOf(data, [1, 4095, 70_000, 1024 * 1024, 13])).toEqual(whole);
    expect(whole.reduce((a, b) => a + b, 0)).toBe(data.length);
  });

  it('keeps every chunk between the limits, near the average', () => {
    const sizes = sizesOf(data);
    for (const size of sizes.slice(0, -1)) {
      expect(size).toBeGreaterThanOrEqual(CHUNKING.minBytes);
      expect(size).toBeLessThanOrEqual(CHUNKING.maxBytes);
    }
    const average = data.length / sizes.length;
    expect(average).toBeGreaterThan(16 * 1024);
    expect(average).toBeLessThan(64 * 1024);
  });

  it('holds the largest size on bytes without a cut point', () => {
    const sizes = sizesOf(Buffer.alloc(1024 * 1024));
    expect(sizes.slice(0, -1).every((s) => s === CHUNKING.maxBytes)).toBe(true);
  });

  it('changes only the chunks around a byte inserted early', () => {
    const before = hashesOf(data);
    const after = hashesOf(Buffer.concat([data.subarray(0, 100_000), Buffer.from([42]), data.subarray(100_000)]));
    const kept = new Set(before);
    const changed = after.filter((h) => !kept.has(h));
    expect(changed.length).toBeLessThanOrEqual(2);
    expect(after.length - changed.length).toBeGreaterThanOrEqual(before.length - 2);
  });

  it('changes only the chunks around bytes removed in the middle', () => {
    const before = new Set(hashesOf(data));
    const after = hashesOf(Buffer.concat([data.subarray(0, 2_000_000), data.subarray(2_000_500)]));
    expect(after.filter((h) => !before.has(h)).length).toBeLessThanOrEqual(2);
  });

  it('refuses limits that cannot work', () => {
    expect(() => new GearChunker({ minBytes: 8192, avgBytes: 30_000, maxBytes: 131_072 })).toThrow(RangeError);
    expect(() => new GearChunker({ minBytes: 65_536, avgBytes: 32_768, maxBytes: 131_072 })).toThrow(RangeError);
  });
});

describe('describeFile', () => {
  it('describes a file as its chunks, with their hashes, offsets and the whole hash, read in any piece size', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-chunks-'));
    try {
      const bytes = Buffer.concat([seeded(1_500_000, 'file'), randomBytes(777)]);
      const path = join(dir, 'scene.blend');
      await writeFile(path, bytes);
      const described = await describeFile(path);
      expect(described.size).toBe(bytes.length);
      expect(described.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(described.chunks.map((c) => c.hash)).toEqual(hashesOf(bytes));
      let at = 0;
      for (const chunk of described.chunks) {
        expect(chunk.offset).toBe(at);
        at += chunk.size;
      }
      expect(at).toBe(bytes.length);
      expect((await describeFile(path, { readBytes: 10_007 })).chunks).toEqual(described.chunks);
      expect(await describeFile(path, { sha256: 'f'.repeat(64) })).toEqual({ ...described, sha256: 'f'.repeat(64) });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
