import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlendFile } from '../../../src/blend/reader/blend-file';
import { collectReferences } from '../../../src/blend/trace/collect-references';
import { SceneCache } from '../../../src/render-node/worker/scene-cache';
import { endbReplacedByOverlongBlock } from '../../blend/helpers/blend-mutations';
import { SyntheticBlend } from '../../blend/helpers/synthetic-blend';
import { zipBytes } from '../../helpers/zip-bytes';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-scene-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The chunk's description of an uploaded file, and a fetch that hands it over as the node would. */
function served(bytes: Buffer, kind: 'blend' | 'zip', path: string) {
  const scene = { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, kind, path };
  const fetch = (target: string, check: () => Transform) => pipeline(Readable.from([bytes]), check(), createWriteStream(target));
  return { scene, fetch };
}

async function storedLibraries(path: string): Promise<string[]> {
  const file = await BlendFile.open(path);
  try {
    return (await collectReferences(file)).filter((r) => r.kind === 'library').map((r) => r.stored);
  } finally {
    await file.close();
  }
}

function linkingOutside(): SyntheticBlend {
  const scene = new SyntheticBlend();
  scene.addLibrary({ name: 'secret.blend', path: '/srv/elsewhere/secret.blend' });
  scene.addLibrary({ name: 'near.blend', path: '//near.blend' });
  return scene;
}

describe('SceneCache', () => {
  it.each([
    ['a bare .blend', 'blend' as const, 'shot.blend', (b: Buffer) => b],
    ['a zip', 'zip' as const, 'shots/shot.blend', (b: Buffer) => zipBytes([{ name: 'shots/shot.blend', data: b }])],
  ])('severs the outside libraries of %s as the node does before handing it to Blender', async (_label, kind, path, wrap) => {
    const { scene, fetch } = served(wrap(linkingOutside().build()), kind, path);
    const cached = await new SceneCache(join(dir, 'cache')).scene(scene, fetch);
    expect(cached.path.startsWith(cached.root)).toBe(true);
    const depth = path.split('/').length - 1;
    expect(await storedLibraries(cached.path)).toEqual([`//${'../'.repeat(depth)}.renderdrop-not-uploaded/0/secret.blend`, '//near.blend']);
  });

  it('hands the same .blend uploaded again under another name to Blender under that name', async () => {
    const bytes = linkingOutside().build();
    const cache = new SceneCache(join(dir, 'cache'));
    const first = await cache.scene(served(bytes, 'blend', 'shot.blend').scene, served(bytes, 'blend', 'shot.blend').fetch);
    let fetchedAgain = false;
    const again = served(bytes, 'blend', 'shot_v2.blend');
    const second = await cache.scene(again.scene, (target, check) => {
      fetchedAgain = true;
      return again.fetch(target, check);
    });
    expect(fetchedAgain).toBe(false);
    expect(second.root).toBe(first.root);
    expect(second.path).toBe(join(first.root, 'shot_v2.blend'));
    expect(await readFile(second.path)).toEqual(await readFile(first.path));
    expect(await storedLibraries(second.path)).toEqual(['//.renderdrop-not-uploaded/0/secret.blend', '//near.blend']);
  });

  it('refuses a scene the reader cannot read, in one line, and keeps nothing of it', async () => {
    const { scene, fetch } = served(endbReplacedByOverlongBlock(linkingOutside().build()), 'blend', 'shot.blend');
    const cache = join(dir, 'cache');
    await expect(new SceneCache(cache).scene(scene, fetch)).rejects.toThrow(
      /^shot\.blend is damaged or is not a \.blend Renderdrop can read\. Open it in Blender, save it again and submit it again\.$/,
    );
    expect(existsSync(join(cache, scene.sha256))).toBe(false);
    expect(await readdir(cache)).toEqual([]);
  });
});
