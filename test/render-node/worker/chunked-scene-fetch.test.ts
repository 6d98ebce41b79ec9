import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transform } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeFile } from '../../../src/core/chunking';
import { SceneCache } from '../../../src/render-node/worker/scene-cache';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';
import { zipBytes } from '../../helpers/zip-bytes';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-scene-chunks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function seeded(size: number, seed: string): Buffer {
  const out = Buffer.alloc(size);
  for (let at = 0, n = 0; at < size; n++) at += createHash('sha256').update(`${seed}:${n}`).digest().copy(out, at);
  return out;
}

/** A scene version as the node would serve it to a worker: the chunk's description, its chunk list, its ranges, and what was asked. */
async function served(bytes: Buffer, name: string) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  const chunks = (await describeFile(path)).chunks.map(({ hash, size }) => ({ hash, size }));
  const scene = { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, kind: 'zip' as const, path: 'shot.blend' };
  const asked = { ranges: 0, bytes: 0, whole: 0 };
  const parts = {
    chunks: async () => chunks,
    range: async (offset: number, length: number) => {
      asked.ranges++;
      asked.bytes += length;
      return bytes.subarray(offset, offset + length);
    },
  };
  const whole = async (_target: string, _check: () => Transform) => {
    asked.whole++;
    throw new Error('fetched whole');
  };
  return { scene, parts, whole, asked };
}

const bundle = (texture: Buffer) =>
  zipBytes([
    { name: 'shot.blend', data: new SyntheticBlend().build() },
    { name: 'textures/paint.png', data: texture },
  ]);

describe('a worker fetching a scene in chunks', () => {
  it("fetches only the changed chunks of a new version of yesterday's scene, checked, and hands Blender the right bytes", async () => {
    const cache = new SceneCache(join(dir, 'cache'));
    const texture = seeded(3 * 1024 * 1024, 'paint');
    const first = await served(bundle(texture), 'v1.zip');
    await cache.scene(first.scene, first.whole, first.parts);
    expect(first.asked).toMatchObject({ whole: 0, bytes: first.scene.size });

    const repainted = Buffer.from(texture);
    repainted.write('a brush stroke', 1_500_000);
    const second = await served(bundle(repainted), 'v2.zip');
    const cached = await cache.scene(second.scene, second.whole, second.parts);
    expect(second.asked.whole).toBe(0);
    expect(second.asked.bytes).toBeLessThanOrEqual(second.scene.size * 0.1);
    expect(cached.fetched).toEqual({ bytesFetched: second.asked.bytes, bytesReused: second.scene.size - second.asked.bytes });
    expect((await cache.scene(second.scene, second.whole, second.parts)).fetched).toBeNull();
    expect((await readFile(join(cached.root, 'textures', 'paint.png'))).equals(repainted)).toBe(true);
  });

  it('refuses a range whose bytes are not the chunk the list names, and fetches whole when the node lists none', async () => {
    const texture = seeded(512 * 1024, 'other');
    const v = await served(bundle(texture), 'v.zip');
    const lying = { ...v.parts, range: async (offset: number, length: number) => Buffer.alloc(length, offset % 251) };
    await expect(new SceneCache(join(dir, 'cache-a')).scene(v.scene, v.whole, lying)).rejects.toThrow(/does not have the hash/);
    const none = { ...v.parts, chunks: async () => null };
    await expect(new SceneCache(join(dir, 'cache-b')).scene(v.scene, v.whole, none)).rejects.toThrow('fetched whole');
    expect(v.asked.whole).toBe(1);
  });
});
