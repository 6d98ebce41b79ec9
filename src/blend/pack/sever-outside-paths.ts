import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, posix, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { asBlendFileError, BlendFile, BlendFileError } from '../reader';
import { collectReferences, isBlendRelative, isWindowsAbsolute, type PathReference } from '../trace';
import { PatchStream } from './patch-stream';
import type { BlendPatch } from './rewrite-paths';

/** Kinds of path Blender's loader opens while it reads a .blend, before any script can run. */
const OPENED_ON_LOAD = new Set<PathReference['kind']>(['library', 'font']);

/** Why a library inside the folder could not be opened that Blender cannot open either (so it follows none of its paths). */
const NOT_OPENED = new Set<BlendFileError['code']>(['not-found', 'not-a-file']);

/** A path of a .blend inside a folder that led outside it, and what it points at now. */
export interface SeveredPath {
  /** The .blend holding it. */
  holder: string;
  kind: 'library' | 'font';
  owner: string;
  /** The path as the .blend stored it. */
  stored: string;
  /** The path stored now (relative to the holder, `//...`): a file inside the folder that does not exist. */
  replacement: string;
}

/** Options of {@link severOutsidePaths}. */
export interface SeverOptions {
  /** Folder inside `root`, never created, that severed paths point into. */
  nowhere: string;
  /** Folder for temporary decompressed copies of gzip-compressed .blend files. */
  tempDir?: string;
}

/**
 * Points the linked libraries and fonts of a scene in `root` (a render job's folder), and of its
 * libraries inside `root`, that lead outside `root` (absolute, Windows or bare relative paths, `//../`
 * climbing out) at files that do not exist under `root/<nowhere>/`: Blender's loader opens those while
 * it reads the file, before any script can keep it inside the folder, and now never opens a file
 * outside. Judged from the paths alone (a job folder holds no symbolic links), so nothing outside
 * `root` is opened or looked at. The libraries of packed linked data (5.0+) are pointed there too but
 * not returned: their data is in the file, so nothing is lost. A .blend that changes is replaced by a decompressed copy with the new
 * paths, written beside it and renamed over it (a hard-linked upload keeps its bytes). A .blend this
 * reader cannot read (the scene, or a library inside `root` that is there) throws its BlendFileError:
 * Blender may still open it and follow paths nobody looked at, so it must not reach Blender.
 */
export async function severOutsidePaths(scenePath: string, root: string, options: SeverOptions): Promise<SeveredPath[]> {
  const top = resolve(root);
  const severed: SeveredPath[] = [];
  let archivedCount = 0;
  const visited = new Set<string>();
  const scene = resolve(scenePath);
  const visit = async (path: string): Promise<void> => {
    if (visited.has(path)) return;
    visited.add(path);
    let file: BlendFile;
    try {
      file = await BlendFile.open(path, options.tempDir ? { tempDir: options.tempDir } : {});
    } catch (error) {
      if (path !== scene && error instanceof BlendFileError && NOT_OPENED.has(error.code)) return;
      throw error;
    }
    const patches: BlendPatch[] = [];
    const libraries: string[] = [];
    try {
      for (const ref of await readReferences(file)) {
        if (!OPENED_ON_LOAD.has(ref.kind) || (ref.packed && !ref.archived) || ref.slot?.type !== 'fixed') continue;
        const target = insideTarget(ref.stored, path, top);
        if (target !== null) {
          if (ref.kind === 'library') libraries.push(target);
          continue;
        }
        const place = ref.archived ? `packed-${archivedCount++}` : String(severed.length);
        const replacement = nowherePath(path, join(top, options.nowhere, place), ref.stored, ref.slot.size);
        patches.push(fixedPatch(ref.slot.offset, ref.slot.size, replacement));
        // Packed linked data reads nothing from its library's path: pointed nowhere all the same, and nothing is lost.
        if (ref.archived) continue;
        severed.push({ holder: path, kind: ref.kind === 'library' ? 'library' : 'font', owner: ref.owner, stored: ref.stored, replacement });
      }
      if (patches.length > 0) await rewrite(file, patches.sort((a, b) => a.offset - b.offset));
    } finally {
      await file.close();
    }
    for (const library of libraries) await visit(library);
  };
  await visit(scene);
  return severed;
}

/** The paths a .blend stores; whatever its bytes make go wrong is a BlendFileError. */
async function readReferences(file: BlendFile): Promise<PathReference[]> {
  try {
    return await collectReferences(file);
  } catch (error) {
    throw asBlendFileError(file.path, error);
  }
}

/** Where a stored path points when that is inside `root`, else null (never looked at on disk). */
function insideTarget(stored: string, holder: string, root: string): string | null {
  if (stored === '' || isWindowsAbsolute(stored)) return null;
  let target: string;
  if (isBlendRelative(stored)) target = resolve(dirname(holder), stored.slice(2).replace(/\\/g, '/'));
  else if (isAbsolute(stored)) target = normalize(stored);
  else return null;
  return target.startsWith(root + sep) ? target : null;
}

/** A `//` path from the holder's folder to `folder/<name of the stored file>`, shortened to fit its field. */
function nowherePath(holder: string, folder: string, stored: string, fieldSize: number): string {
  const prefix = `//${relative(dirname(holder), folder).split(sep).join(posix.sep)}/`;
  const name = stored.replace(/\\/g, '/').replace(/\/+$/, '').split('/').pop() || 'file';
  const room = fieldSize - 1 - Buffer.byteLength(prefix);
  let fitted = name;
  while (Buffer.byteLength(fitted) > room && fitted.length > 1) fitted = fitted.slice(1);
  return prefix + fitted;
}

function fixedPatch(offset: number, size: number, value: string): BlendPatch {
  const bytes = Buffer.alloc(size);
  Buffer.from(value, 'utf8').copy(bytes, 0, 0, size - 1);
  return { offset, length: size, data: bytes.toString('base64') };
}

async function rewrite(file: BlendFile, patches: BlendPatch[]): Promise<void> {
  const partial = `${file.path}.severing`;
  try {
    await pipeline(file.source.stream(), new PatchStream(patches), createWriteStream(partial));
    await rename(partial, file.path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
