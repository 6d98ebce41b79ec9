import type { BlendFile, StructView } from '../reader';
import type { PathReference } from './path-reference';
import { fixedReference } from './reference-helpers';

/** Library.flag (5.0+): an archive of linked data-blocks packed into this file (LIBRARY_FLAG_IS_ARCHIVE). */
const LIBRARY_FLAG_IS_ARCHIVE = 1 << 0;

/**
 * The path of a linked library. Its data is in this file, so nothing on disk is needed, when the whole
 * library is packed (`packedfile`), when it is an archive of packed linked data-blocks (5.0+: linked with
 * "pack"), or when it is only the source such archives were made from and no data-block of the file is
 * still linked from it (Blender then never opens it). Blender still lists these paths.
 */
export async function libraryPath(file: BlendFile, library: StructView, owner: string): Promise<PathReference[]> {
  const archived = isArchive(library) || (await onlyArchived(file, library));
  const ref = fixedReference(library, 'filepath', { kind: 'library', owner, packed: archived || library.pointer('packedfile') !== 0n });
  if (!ref) return [];
  return [archived ? { ...ref, archived } : ref];
}

/** Only files with archives (5.0+) have `Library.flag`; older ones would answer with the `ID`'s flag. */
const isArchive = (library: StructView) => library.has('archive_parent_library') && ((library.number('flag') ?? 0) & LIBRARY_FLAG_IS_ARCHIVE) !== 0;

/** Whether archives of packed data were made from `library` and no data-block of the file links it directly. */
async function onlyArchived(file: BlendFile, library: StructView): Promise<boolean> {
  if (!library.has('archive_parent_library')) return false;
  let archived = false;
  for (const block of file.idBlocks('LI')) {
    const other = await file.struct(block);
    if (other && isArchive(other) && file.blockOf(other, 'archive_parent_library') === library.block) archived = true;
  }
  if (!archived) return false;
  for (const block of file.allIdBlocks()) {
    const header = await file.idHeader(block);
    if (header && header.pointer('lib') !== 0n && file.blockOf(header, 'lib') === library.block) return false;
  }
  return true;
}
