import type { BlendFile, StructView } from '../reader';
import type { PathReference } from './path-reference';

/** NodesModifierBake.flag: the bake has a folder of its own (`directory`), not one inside the modifier's. */
const NODES_MODIFIER_BAKE_CUSTOM_PATH = 1 << 1;

/**
 * The bakes of a Geometry Nodes modifier that Blender reads: each simulation zone and Bake node of its
 * node tree has one entry in the modifier's `bakes`. A bake packed into the .blend (5.x, and 4.x when
 * packed by hand) reads nothing from disk; otherwise Blender reads the bake's own `directory` when it
 * has a custom path, else `<bake_directory>/<bake id>` (the modifier's bake folder, which the bake
 * operators set to `//blendcache_<file>/<object>_<modifier>` when it is empty). Each is listed with the
 * path it stores, as Blender 5.x lists them (4.x lists none). A bake the file says was never baked
 * (`bake_size` 0) is not needed when its folder is absent: Blender then evaluates the nodes instead.
 * Files of 3.6 and 4.0 have only the modifier's folder, with one folder per simulation zone inside.
 */
export async function nodesModifierBakePaths(file: BlendFile, modifier: StructView, owner: string): Promise<PathReference[]> {
  const modifierFolder = await blockStringReference(file, modifier, 'bake_directory', owner);
  if (!modifier.has('bakes')) return modifierFolder ? [modifierFolder] : [];
  const block = file.blockOf(modifier, 'bakes');
  const bakes = block < 0 ? [] : (await file.structs(block)).slice(0, Math.max(0, modifier.number('bakes_num') ?? 0));
  const out: PathReference[] = [];
  for (const bake of bakes) {
    const custom = ((bake.number('flag') ?? 0) & NODES_MODIFIER_BAKE_CUSTOM_PATH) !== 0;
    const ref = custom ? await blockStringReference(file, bake, 'directory', owner) : modifierFolder;
    if (!ref) continue;
    const packed = bake.pointer('packed') !== 0n;
    const required = bake.number('bake_size') !== 0;
    out.push({ ...ref, packed, required, ...(custom ? {} : { subfolder: String(bake.number('id') ?? 0) }) });
  }
  return out;
}

/** A bake folder held in a string block of its own (`char *`), or null when unset or empty. */
async function blockStringReference(file: BlendFile, view: StructView, field: string, owner: string): Promise<PathReference | null> {
  const block = file.blockOf(view, field);
  if (block < 0) return null;
  const stored = await file.blockString(block);
  if (stored === '') return null;
  const slot = { type: 'block' as const, headerOffset: file.index.headerOffset[block]!, dataOffset: file.index.dataOffset[block]!, size: file.index.length[block]! };
  return { kind: 'geometry-nodes-bake', owner, stored, packed: false, shape: 'directory', required: true, slot };
}
