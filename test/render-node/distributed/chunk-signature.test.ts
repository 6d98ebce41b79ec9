import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson, signChunk, verifyChunk, type UnsignedChunk } from '../../../src/render-node/distributed/chunk-signature';
import { chunkJobId } from '../../../src/render-node/distributed/protocol';
import { REQUEST_EXPIRES_HEADER, REQUEST_SIGNATURE_HEADER, signWorkerRequest, verifyWorkerRequest } from '../../../src/render-node/distributed/request-signature';
import { createWorkerSecretFile, loadNodeWorkerSecret, newWorkerSecret, parseWorkerSecret, WorkerSecretError, workerKeys } from '../../../src/render-node/worker-access/worker-secret';

const jobId = '1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b';
const unsigned: UnsignedChunk = {
  v: 4,
  node: 'ws',
  jobId,
  index: 1,
  generation: 0,
  frames: [3, 4],
  blender: '3.4.1',
  requires: ['big-ram'],
  scene: { sha256: 'b'.repeat(64), size: 1234, kind: 'blend', path: 'shot.blend' },
  plan: { fileNamePattern: 'shot_####', outputFormat: 'PNG', camera: 'Camera', resolution: [64, 36], resolutionPercentage: 100, samples: 8, fps: 29.97 },
  get: 'expires=1&key=render-worker&sig=' + 'c'.repeat(64),
  put: 'expires=1&key=render-worker&sig=' + 'd'.repeat(64),
};
const keys = workerKeys(newWorkerSecret());
const id = chunkJobId(jobId, 1, 0);
/** The chunk as a worker reads it out of Redis: JSON, then parsed. */
const fromRedis = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, any>;

describe('chunk signatures', () => {
  it('a chunk the node signed verifies as it comes out of Redis, whatever the order of its keys', () => {
    const signed = signChunk(keys, unsigned);
    const shuffled = Object.fromEntries(Object.entries(fromRedis(signed)).reverse());
    const verdict = verifyChunk(keys, shuffled, id);
    expect(verdict.ok).toBe(true);
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }] })).toBe('{"a":[{"c":null,"d":2}],"b":1}');
  });

  it.each<[string, (c: Record<string, any>) => void]>([
    ['the camera', (c) => (c.plan.camera = 'Spy')],
    ['the resolution', (c) => (c.plan.resolution = [4096, 4096])],
    ['the frames', (c) => c.frames.push(5)],
    ['the scene hash', (c) => (c.scene.sha256 = 'e'.repeat(64))],
    ['the URLs', (c) => (c.put = c.get)],
    ['the generation', (c) => (c.generation = 1)],
    ['an added field', (c) => (c.extra = true)],
    ['a removed field', (c) => delete c.blender],
    ['the required tags', (c) => (c.requires = [])],
  ])('refuses a chunk whose %s was changed', (_what, change) => {
    const tampered = fromRedis(signChunk(keys, unsigned));
    change(tampered);
    const verdict = verifyChunk(keys, tampered, id);
    expect(verdict).toEqual({ ok: false, reason: expect.stringMatching(/signature does not match/) });
  });

  it('refuses an unsigned chunk, one signed with another secret, and one moved to another queue entry', () => {
    const { sig: _sig, ...bare } = fromRedis(signChunk(keys, unsigned));
    expect(verifyChunk(keys, bare, id)).toEqual({ ok: false, reason: 'it is not signed' });
    expect(verifyChunk(workerKeys(newWorkerSecret()), fromRedis(signChunk(keys, unsigned)), id).ok).toBe(false);
    expect(verifyChunk(keys, fromRedis(signChunk(keys, unsigned)), chunkJobId(jobId, 0, 0))).toEqual({ ok: false, reason: 'it was moved to another queue entry' });
  });
});

describe('worker request signatures', () => {
  const path = `/storage/render/${jobId}/chunks/1/scene?expires=1&key=render-worker&sig=${'c'.repeat(64)}`;
  const now = new Date('2030-01-01T00:00:00Z');

  it('hold for their method and path only, and not once expired or without the secret', () => {
    const headers = signWorkerRequest(keys, 'GET', path, now);
    expect(verifyWorkerRequest(keys, 'GET', path, headers, now)).toBe('ok');
    expect(verifyWorkerRequest(keys, 'PUT', path, headers, now)).toBe('invalid');
    expect(verifyWorkerRequest(keys, 'GET', path.replace('/chunks/1/', '/chunks/2/'), headers, now)).toBe('invalid');
    expect(verifyWorkerRequest(keys, 'GET', path.replace('scene', 'status'), headers, now)).toBe('invalid');
    expect(verifyWorkerRequest(keys, 'GET', path, headers, new Date(now.getTime() + 600_000))).toBe('expired');
    expect(verifyWorkerRequest(keys, 'GET', path, {}, now)).toBe('missing');
    expect(verifyWorkerRequest(workerKeys(newWorkerSecret()), 'GET', path, headers, now)).toBe('invalid');
    const far = signWorkerRequest(keys, 'GET', path, new Date(now.getTime() + 3600_000));
    expect(verifyWorkerRequest(keys, 'GET', path, far, now), 'an expiry far ahead is refused').toBe('invalid');
    expect(Object.keys(headers).sort()).toEqual([REQUEST_EXPIRES_HEADER, REQUEST_SIGNATURE_HEADER].sort());
  });
});

describe('the worker secret', () => {
  it('is created once in the data folder, readable by its owner only, and replaced only with rotate', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-secret-'));
    const { secret, path } = await createWorkerSecretFile(dir, false);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readFile(path, 'utf8')).trim()).toBe(secret);
    expect(await loadNodeWorkerSecret(dir, undefined)).toBe(secret);
    await expect(createWorkerSecretFile(dir, false)).rejects.toThrow(/already has a worker secret/);
    const rotated = await createWorkerSecretFile(dir, true);
    expect(rotated.secret).not.toBe(secret);
    expect(await loadNodeWorkerSecret(dir, undefined)).toBe(rotated.secret);
    expect(await loadNodeWorkerSecret(dir, ` ${secret}\n`)).toBe(secret);
  });

  it('is required, and refused when malformed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-secret-'));
    await expect(loadNodeWorkerSecret(dir, undefined)).rejects.toThrow(WorkerSecretError);
    expect(() => parseWorkerSecret('hunter2', 'RENDERDROP_WORKER_SECRET')).toThrow(/does not hold a worker secret/);
  });
});
