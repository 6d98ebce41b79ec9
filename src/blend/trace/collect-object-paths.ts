import type { BlendFile, StructView } from '../reader';
import { nodesModifierBakePaths } from './collect-bake-paths';
import type { PathReference } from './path-reference';
import { fixedReference } from './reference-helpers';

/** PointCache.flag: the cache lives on disk. */
const PTCACHE_DISK_CACHE = 1 << 6;
/** PointCache.flag: the cache was made elsewhere and lives in `path`. */
const PTCACHE_EXTERNAL = 1 << 9;
/** FluidModifierData.type: the object is a fluid domain. */
const MOD_FLUID_TYPE_DOMAIN = 1;

/**
 * Paths of an object: modifiers that read from disk (mesh cache, ocean, fluid, cloth caches, the old
 * fluid simulation, Geometry Nodes bakes) and the point caches of soft bodies and particle systems that
 * live on disk.
 */
export async function objectPaths(file: BlendFile, object: StructView, owner: string): Promise<PathReference[]> {
  const out: PathReference[] = [];
  const push = (ref: PathReference | null) => {
    if (ref) out.push(ref);
  };
  for (const modifier of await file.list(object, 'modifiers')) {
    const type = file.structOf(modifier.block)?.name;
    if (type === 'MeshCacheModifierData') {
      push(fixedReference(modifier, 'filepath', { kind: 'mesh-cache', owner }));
    } else if (type === 'OceanModifierData') {
      push(fixedReference(modifier, 'cachepath', { kind: 'ocean-cache', owner, shape: 'directory' }));
    } else if (type === 'FluidModifierData') {
      const domain = ((modifier.number('type') ?? 0) & MOD_FLUID_TYPE_DOMAIN) !== 0 ? await file.follow(modifier, 'domain') : null;
      if (domain) push(fixedReference(domain, 'cache_directory', { kind: 'fluid-cache', owner, shape: 'directory' }));
    } else if (type === 'FluidsimModifierData') {
      const settings = await file.follow(modifier, 'fss');
      if (settings) push(fixedReference(settings, 'surfdataPath', { kind: 'fluid-cache', owner, shape: 'directory' }));
    } else if (type === 'ClothModifierData') {
      out.push(...(await pointCachePaths(file, modifier, owner)));
    } else if (type === 'NodesModifierData') {
      out.push(...(await nodesModifierBakePaths(file, modifier, owner)));
    }
  }
  const soft = await file.follow(object, 'soft');
  const shared = soft && (await file.follow(soft, 'shared'));
  if (shared) out.push(...(await pointCachePaths(file, shared, owner)));
  for (const system of await file.list(object, 'particlesystem')) out.push(...(await pointCachePaths(file, system, owner)));
  return out;
}

async function pointCachePaths(file: BlendFile, holder: StructView, owner: string): Promise<PathReference[]> {
  const out: PathReference[] = [];
  for (const cache of await file.list(holder, 'ptcaches')) {
    const flag = cache.number('flag') ?? 0;
    if ((flag & PTCACHE_DISK_CACHE) === 0) continue;
    const shape = (flag & PTCACHE_EXTERNAL) !== 0 ? 'directory' : 'blendcache';
    const ref = fixedReference(cache, 'path', { kind: 'point-cache', owner, shape });
    if (ref) out.push(ref);
  }
  return out;
}
