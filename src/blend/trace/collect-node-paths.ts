import type { BlendFile, StructView } from '../reader';
import type { PathKind, PathReference } from './path-reference';
import { fixedReference } from './reference-helpers';

/** Storage structs of shader nodes that read a file: OSL scripts and IES light profiles. */
const NODE_STORAGE = new Map<string, PathKind>([
  ['NodeShaderScript', 'shader-script'],
  ['NodeShaderTexIES', 'ies-light'],
]);

/** bNodeSocketValueString.subtype of a socket holding a file path (PROP_FILEPATH). */
const PROP_FILEPATH = 1;
/** bNodeTree.type of Geometry Nodes trees, the only ones with file path sockets. */
const NTREE_GEOMETRY = 3;

/**
 * Paths of the nodes of a node tree (an ID of its own, or embedded in a material, world, light...): the
 * files of script and IES nodes, and every file path a node's input socket holds (the Import OBJ, PLY,
 * STL, CSV, VDB and Text nodes of Geometry Nodes, and group nodes whose group takes a file path), as
 * Blender 5.x lists them: linked or muted ones too, since the stored value is what Blender lists.
 */
export async function nodeTreePaths(file: BlendFile, tree: StructView, owner: string): Promise<PathReference[]> {
  const out: PathReference[] = [];
  const geometry = tree.number('type') === NTREE_GEOMETRY;
  for (const node of await file.list(tree, 'nodes')) {
    if (geometry) out.push(...(await socketFilePaths(file, node, owner)));
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

async function socketFilePaths(file: BlendFile, node: StructView, owner: string): Promise<PathReference[]> {
  const out: PathReference[] = [];
  for (const socket of await file.list(node, 'inputs')) {
    const block = file.blockOf(socket, 'default_value');
    if (block < 0 || file.structOf(block)?.name !== 'bNodeSocketValueString') continue;
    const value = await file.struct(block);
    if (!value || value.number('subtype') !== PROP_FILEPATH) continue;
    const ref = fixedReference(value, 'value', { kind: 'node-file', owner });
    if (ref && ref.stored !== '') out.push(ref);
  }
  return out;
}
