import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChunkStore } from '../../../src/render-node/chunk-store';

const bytesOf = (n: number) => Buffer.alloc(1000, n);
const hashOf = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('ChunkStore', () => {
  let dir: string;
  let clock: number;
  const open = (maxBytes = 10_000) => new ChunkStore({ dir, maxBytes, now: () => new Date(clock) });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rd-store-'));
    clock = Date.parse('2026-11-29T00:00:00Z');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('counts a chunk as present only for the keys that sent its bytes, and refuses bytes of another hash', () => {
    const store = open();
    const a = bytesOf(1);
    expect(store.put('key-a', hashOf(bytesOf(2)), a)).toBe(false);
    expect(store.put('key-a', hashOf(a), a)).toBe(true);
    expect([...store.ownedBy('key-a', [hashOf(a)])]).toEqual([hashOf(a)]);
    expect(store.ownedBy('key-b', [hashOf(a)]).size).toBe(0);
    store.close();
  });

  it('keeps its chunks and claims across a restart, and forgets a chunk damaged on disk for every key', async () => {
    const a = bytesOf(1);
    const first = open();
    first.put('key-a', hashOf(a), a);
    first.put('key-b', hashOf(a), a);
    first.close();
    const again = open();
    expect(again.read(hashOf(a))?.equals(a)).toBe(true);
    await writeFile(join(dir, 'objects', hashOf(a).slice(0, 2), hashOf(a)), bytesOf(9));
    expect(again.read(hashOf(a))).toBeNull();
    expect(again.ownedBy('key-a', [hashOf(a)]).size).toBe(0);
    expect(again.ownedBy('key-b', [hashOf(a)]).size).toBe(0);
    again.close();
  });

  it('collects the chunks used longest ago down to 90 % of its limit, never those of an upload still open', () => {
    const store = open(5_000);
    const chunks = Array.from({ length: 8 }, (_, i) => bytesOf(i));
    const expiresAt = new Date(clock + 3600_000).toISOString();
    store.createUpload({ id: 'c-open', keyId: 'k', userId: 'u', fileName: 'a.blend', fileType: 'blend', size: 1000, sha256: hashOf(chunks[0]!), chunks: [{ hash: hashOf(chunks[0]!), size: 1000 }], expiresAt });
    for (const chunk of chunks) {
      clock += 1000;
      store.put('k', hashOf(chunk), chunk);
    }
    clock += 1000;
    store.touch([hashOf(chunks[1]!)]);
    const removed = store.collect();
    expect(store.totalBytes()).toBeLessThanOrEqual(4_500);
    expect(removed.removed).toBe(4);
    const left = store.ownedBy('k', chunks.map(hashOf));
    expect(left.has(hashOf(chunks[0]!))).toBe(true);
    expect(left.has(hashOf(chunks[1]!))).toBe(true);
    expect([2, 3, 4, 5].some((i) => left.has(hashOf(chunks[i]!)))).toBe(false);
    store.markRebuilt('c-open', 'u-slug');
    clock += 1000;
    store.touch(chunks.slice(1).map(hashOf));
    store.put('k', hashOf(bytesOf(50)), bytesOf(50));
    store.put('k', hashOf(bytesOf(51)), bytesOf(51));
    store.collect();
    expect(store.ownedBy('k', [hashOf(chunks[0]!)]).size).toBe(0);
    store.close();
  });
});
