import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMissing } from '../../../src/blend/trace/dependency';
import type { PathKind, PathReference } from '../../../src/blend/trace/path-reference';
import { resolveReference } from '../../../src/blend/trace/resolve-reference';
import { isBlenderTemporaryCache } from '../../../src/blend/trace/temporary-cache';
import { writeTree } from '../helpers/scene-folder';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rd-temp-cache-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const cache = (kind: PathKind, stored: string): PathReference => ({ kind, owner: 'Domain', stored, packed: false, shape: 'directory', required: true, slot: null });

describe("Blender's temporary cache folders", () => {
  it.each<[PathKind, string]>([
    ['fluid-cache', '/tmp/blender_a1B2c3/cache_fluid_5e2a1c3b'],
    ['fluid-cache', '/tmp/blender_a1B2c3/cache_fluid_5e2a1c3b/'],
    ['fluid-cache', '/run/user/1000/blender_Qx81pz/cache_fluid'],
    ['fluid-cache', '/tmp/cache_fluid_1'],
    ['fluid-cache', '/var/tmp/cache_fluid_ff'],
    ['fluid-cache', '/private/var/folders/x7/k2m9_0000gn/T/blender_ZZ01ab/cache_fluid_3a'],
    ['fluid-cache', '//../../../tmp/blender_a1B2c3/cache_fluid_5e2a1c3b'],
    ['fluid-cache', '//../../tmp/cache_fluid_5e2a1c3b'],
    ['fluid-cache', 'C:\\Users\\ana\\AppData\\Local\\Temp\\blender_a04512\\cache_fluid_5e2a1c3b\\'],
    ['fluid-cache', '//..\\..\\AppData\\Local\\Temp\\cache_fluid_5e2a1c3b'],
    ['fluid-cache', 'C:\\Temp\\cache_fluid'],
    ['ocean-cache', '/tmp/blender_a1B2c3/cache_ocean'],
    ['point-cache', '/tmp/blender_a1B2c3/blendcache_'],
  ])('%s %s is one', (kind, stored) => {
    expect(isBlenderTemporaryCache(kind, stored)).toBe(true);
  });

  it.each<[PathKind, string]>([
    ['fluid-cache', '//cache_fluid_5e2a1c3b'],
    ['fluid-cache', '//tmp/cache_fluid_5e2a1c3b'],
    ['fluid-cache', '/tmp/bakes/cache_fluid_5e2a1c3b'],
    ['fluid-cache', '/home/ana/proj/cache_fluid_5e2a1c3b'],
    ['fluid-cache', '/tmp/blender_a1B2c3/my_fluid_bake'],
    ['fluid-cache', '/tmp/blender_a1B2c3/cache_fluid_notahash'],
    ['fluid-cache', 'tmp/cache_fluid_1'],
    ['fluid-cache', ''],
    ['ocean-cache', '/tmp/blender_a1B2c3/cache_fluid_1'],
    ['image', '/tmp/blender_a1B2c3/cache_fluid_1'],
    ['mesh-cache', '/tmp/blender_a1B2c3/cache_ocean'],
  ])('%s %s is not', (kind, stored) => {
    expect(isBlenderTemporaryCache(kind, stored)).toBe(false);
  });

  it('does not report a temporary fluid or point cache folder that is gone as missing: it is a note', async () => {
    await writeTree(root, { 'proj/shot.blend': 'x' });
    const holder = join(root, 'proj', 'shot.blend');
    const options = { platform: 'posix' as const, sceneDir: join(root, 'proj') };
    for (const ref of [
      cache('fluid-cache', '/tmp/blender_r3nd0m/cache_fluid_5e2a1c3b'),
      cache('fluid-cache', '//../../../../tmp/blender_r3nd0m/cache_fluid_5e2a1c3b'),
      cache('point-cache', '/tmp/blender_r3nd0m/blendcache_'),
    ]) {
      const dep = await resolveReference(ref, holder, options);
      expect(dep, ref.stored).toMatchObject({ status: 'missing', required: false });
      expect(isMissing(dep)).toBe(false);
      expect(dep.problem).toBe(
        `The ${ref.kind === 'fluid-cache' ? 'fluid cache' : 'physics cache'} "Domain" in shot.blend points at ${ref.stored}, a folder Blender made in its temporary folder and deletes when it quits; there is nothing to send, and Blender renders the scene without it on this computer too.`,
      );
    }
    const windows = await resolveReference(cache('fluid-cache', 'C:\\Users\\ana\\AppData\\Local\\Temp\\blender_a04512\\cache_fluid_5e2a1c3b\\'), holder, options);
    expect(windows).toMatchObject({ status: 'other-system', required: false });
  });

  it('still sends a temporary cache folder that is on this disk, and still reports a missing bake of the artist', async () => {
    await writeTree(root, { 'proj/shot.blend': 'x', 'blender_Ab12Cd/cache_fluid_1a2b/data/fluid_data_0001.uni': 'u' });
    const holder = join(root, 'proj', 'shot.blend');
    const options = { platform: 'posix' as const, sceneDir: join(root, 'proj') };
    const kept = await resolveReference(cache('fluid-cache', join(root, 'blender_Ab12Cd', 'cache_fluid_1a2b')), holder, options);
    expect(kept).toMatchObject({ status: 'found', required: true, problem: null });
    expect(kept.files).toHaveLength(1);
    const bake = await resolveReference(cache('fluid-cache', '//cache_fluid_1a2b'), holder, options);
    expect(bake).toMatchObject({ status: 'missing', required: true });
    expect(isMissing(bake)).toBe(true);
    expect(bake.problem).toMatch(/^The fluid cache "Domain" in shot\.blend uses \/\/cache_fluid_1a2b, which is not on this computer/);
  });
});
