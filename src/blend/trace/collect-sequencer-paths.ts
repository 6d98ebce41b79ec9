import type { BlendFile, StructView } from '../reader';
import type { PathReference, PathSlot } from './path-reference';

/** Strip types (Sequence.type) that read files. */
const SEQ_TYPE_IMAGE = 0;
const SEQ_TYPE_MOVIE = 3;
const SEQ_TYPE_SOUND_RAM = 4;
/** Deepest nesting of meta strips followed. */
const MAX_DEPTH = 64;

/** Folder and file name joined the way Blender joins them: one separator between, `//` kept. */
export function joinFolderFile(folder: string, file: string): string {
  const trimmed = folder.replace(/[\\/]+$/, '');
  const name = file.replace(/^[\\/]+/, '');
  if (trimmed === '') return folder + name;
  return name === '' ? trimmed : `${trimmed}/${name}`;
}

/**
 * Paths of the video sequencer of a scene: image strips (one per image), movie and sound strips,
 * including those inside meta strips.
 */
export async function sequencerPaths(file: BlendFile, scene: StructView, owner: string): Promise<PathReference[]> {
  const editing = await file.follow(scene, 'ed');
  if (!editing) return [];
  const out: PathReference[] = [];
  await visit(file, editing, 'seqbase', owner, out, 0);
  return out;
}

async function visit(file: BlendFile, holder: StructView, listField: string, owner: string, out: PathReference[], depth: number): Promise<void> {
  if (depth > MAX_DEPTH) return;
  for (const strip of await file.list(holder, listField)) {
    await stripPaths(file, strip, owner, out);
    await visit(file, strip, 'seqbase', owner, out, depth + 1);
  }
}

async function stripPaths(file: BlendFile, strip: StructView, owner: string, out: PathReference[]): Promise<void> {
  const type = strip.number('type');
  if (type !== SEQ_TYPE_IMAGE && type !== SEQ_TYPE_MOVIE && type !== SEQ_TYPE_SOUND_RAM) return;
  const data = await file.follow(strip, 'data');
  const location = data?.location('dirpath');
  const folder = data?.string('dirpath');
  if (!data || !location || folder === null || folder === undefined) return;
  const name = stripOwner(strip, owner);
  const elementsBlock = file.blockOf(data, 'stripdata');
  const elements = elementsBlock < 0 ? [] : await file.structs(elementsBlock);
  const files = type === SEQ_TYPE_IMAGE ? elements : elements.slice(0, 1);
  if (files.length === 0) {
    out.push(reference(name, folder, { type: 'fixed', offset: location.offset, size: location.size }));
    return;
  }
  for (const element of files) {
    const fileName = element.string('filename') ?? '';
    out.push(reference(name, joinFolderFile(folder, fileName), { type: 'folder', offset: location.offset, size: location.size, file: fileName }));
  }
}

function stripOwner(strip: StructView, scene: string): string {
  const name = strip.string('name') ?? '';
  return `${scene} / ${name.slice(2)}`;
}

function reference(owner: string, stored: string, slot: PathSlot): PathReference {
  return { kind: 'sequencer-strip', owner, stored, packed: false, shape: 'file', required: true, slot };
}
