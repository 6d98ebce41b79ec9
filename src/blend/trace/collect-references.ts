import type { BlendFile, StructView } from '../reader';
import { libraryPath } from './collect-library-paths';
import { nodeTreePaths } from './collect-node-paths';
import { objectPaths } from './collect-object-paths';
import { sequencerPaths } from './collect-sequencer-paths';
import type { PathReference, PathShape } from './path-reference';
import { fixedReference } from './reference-helpers';

/** Image.source values that read files (file, sequence, movie, UDIM tiles). */
const IMAGE_SOURCE_SHAPE = new Map<number, PathShape>([
  [1, 'file'],
  [2, 'sequence'],
  [3, 'file'],
  [6, 'udim'],
]);
/** MovieClip.source: an image sequence (else a movie file). */
const MOVIECLIP_SOURCE_SEQUENCE = 1;
const BUILTIN_FONT = '<builtin>';

type Collector = (file: BlendFile, id: StructView, owner: string) => Promise<PathReference[]>;

/**
 * Every path the local (not linked) data-blocks of one .blend store, in the file's order: what
 * `bpy.utils.blend_paths(local=True, packed=True)` lists for it, packed data flagged as such.
 */
export async function collectReferences(file: BlendFile): Promise<PathReference[]> {
  const out: PathReference[] = [];
  for (const block of file.allIdBlocks()) {
    const header = await file.idHeader(block);
    if (!header || header.pointer('lib') !== 0n) continue;
    const owner = (header.string('name') ?? '').slice(2);
    out.push(...(await weakReference(file, header, owner)));
    const code = file.codeOf(block);
    const collect = COLLECTORS[code];
    if (!collect && !NODE_TREE_OWNERS.has(code)) continue;
    const id = await file.struct(block);
    if (!id) continue;
    const tree = id.has('nodetree') ? await file.follow(id, 'nodetree') : null;
    if (tree) out.push(...(await nodeTreePaths(file, tree, owner)));
    if (collect) out.push(...(await collect(file, id, owner)));
  }
  return out;
}

/** Data-blocks that may embed a node tree (materials, worlds, lights, textures, scenes, line styles). */
const NODE_TREE_OWNERS = new Set(['MA', 'WO', 'LA', 'TE', 'SC', 'LS']);

const COLLECTORS: Record<string, Collector> = {
  IM: imagePaths,
  LI: libraryPath,
  SO: async (_file, id, owner) => single(fixedReference(id, 'filepath', { kind: 'sound', owner, packed: id.pointer('packedfile') !== 0n })),
  MC: async (_file, id, owner) => {
    const shape = id.number('source') === MOVIECLIP_SOURCE_SEQUENCE ? 'sequence' : 'file';
    return single(fixedReference(id, 'filepath', { kind: 'movie-clip', owner, shape }));
  },
  VF: async (_file, id, owner) => {
    const ref = fixedReference(id, 'filepath', { kind: 'font', owner, packed: id.pointer('packedfile') !== 0n });
    return ref && ref.stored !== BUILTIN_FONT ? [ref] : [];
  },
  CF: async (_file, id, owner) => single(fixedReference(id, 'filepath', { kind: 'cache-file', owner, shape: id.number('is_sequence') ? 'sequence' : 'file' })),
  VO: async (_file, id, owner) =>
    single(fixedReference(id, 'filepath', { kind: 'volume', owner, packed: id.pointer('packedfile') !== 0n, shape: id.number('is_sequence') ? 'sequence' : 'file' })),
  TX: textPath,
  ME: meshPath,
  OB: objectPaths,
  SC: sequencerPaths,
  NT: (file, id, owner) => nodeTreePaths(file, id, owner),
  BR: async (_file, id, owner) => {
    const ref = fixedReference(id, 'icon_filepath', { kind: 'brush-icon', owner, required: false });
    return ref && ref.stored !== '' ? [ref] : [];
  },
};

const single = (ref: PathReference | null): PathReference[] => (ref ? [ref] : []);

async function imagePaths(file: BlendFile, image: StructView, owner: string): Promise<PathReference[]> {
  const shape = IMAGE_SOURCE_SHAPE.get(image.number('source') ?? 0);
  if (!shape) return [];
  const packed = image.pointer('packedfile') !== 0n || (await file.list(image, 'packedfiles')).length > 0;
  const tiles = shape === 'udim' ? (await file.list(image, 'tiles')).map((tile) => tile.number('tile_number') ?? 1001) : undefined;
  const ref = fixedReference(image, 'filepath', { kind: 'image', owner, shape, packed, ...(tiles ? { tiles } : {}) });
  return ref && ref.stored !== '' ? [ref] : [];
}

async function textPath(file: BlendFile, text: StructView, owner: string): Promise<PathReference[]> {
  const block = file.blockOf(text, 'filepath');
  if (block < 0) return [];
  const slot = { type: 'block' as const, headerOffset: file.index.headerOffset[block]!, dataOffset: file.index.dataOffset[block]!, size: file.index.length[block]! };
  return [{ kind: 'text', owner, stored: await file.blockString(block), packed: false, shape: 'file', required: true, slot }];
}

async function meshPath(file: BlendFile, mesh: StructView, owner: string): Promise<PathReference[]> {
  const data = file.embedded(mesh, 'corner_data');
  const external = data ? await file.follow(data, 'external') : null;
  return single(external && fixedReference(external, 'filepath', { kind: 'multires-displacement', owner }));
}

async function weakReference(file: BlendFile, header: StructView, owner: string): Promise<PathReference[]> {
  const weak = await file.follow(header, 'library_weak_reference');
  return single(weak && fixedReference(weak, 'library_filepath', { kind: 'asset-source', owner, required: false }));
}
