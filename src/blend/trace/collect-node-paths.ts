import type { BlendFile } from '../reader/blend-file';
import type { PathKind, PathReference } from './path-reference';
import { fixedReference } from './reference-helpers';
import type { StructView } from '../reader/struct-view';

/** Storage structs of shader nodes that read a file: OSL scripts and IES light profiles. */
const NODE_STORAGE = new Map<string, PathKind>([
  ['NodeShaderScript', 'shader-script'],
  ['NodeShaderTexIES', 'ies-light'],
]);

/** Paths of the nodes of a node tree (an ID of its own, or embedded in a material, world, light...). */
export async function nodeTreePaths(file: BlendFile, tree: StructView, owner: string): Promise<PathReference[]> {
  const out: PathReference[] = [];
  for (const node of await file.list(tree, 'nodes')) {
    const block = file.blockOf(node, 'storage');
    if (block < 0) continue;
    const kind = NODE_STORAGE.get(file.structOf(block)?.name ?? '');
    if (!kind) continue;
    const storage = await file.struct(block);
    const ref = storage && fixedReference(storage, 'filepath', { kind, owner });
    if (ref) out.push(ref);
  }
  return out;
}
