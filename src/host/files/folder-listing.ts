import type { Dirent, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { NotFoundError } from '../../core/errors';
import type { FileEntryView, FileKind, FolderView } from '../../shared/contract';

/** The most entries one folder listing holds; the rest are left out (and the listing says so). */
export const MAX_FOLDER_ENTRIES = 5000;

/** What to list: a folder under `home` (absolute, or relative to home; default home itself). */
export interface FolderRequest {
  home: string;
  path?: string;
  /** List names starting with a dot too. */
  hidden?: boolean;
}

/** Whether `path` is `root` or inside it (both already resolved). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** What the file browser calls a file, by what it is and its extension. */
export function fileKind(name: string, isFolder: boolean): FileKind {
  if (isFolder) return 'folder';
  const lower = name.toLowerCase();
  if (lower.endsWith('.blend')) return 'blend';
  if (lower.endsWith('.zip')) return 'zip';
  return 'other';
}

/** Folders first, then files, each by name as a person sorts them (numbers in order, case ignored). */
export function compareEntries(a: Pick<FileEntryView, 'name' | 'kind'>, b: Pick<FileEntryView, 'name' | 'kind'>): number {
  const folders = Number(b.kind === 'folder') - Number(a.kind === 'folder');
  return folders !== 0 ? folders : a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' });
}

/**
 * Lists a folder under the home folder. The folder and every entry are resolved through symlinks and
 * `..` first: a folder outside home is refused, an entry that leads outside it is left out, and so is
 * anything that is neither a file nor a folder.
 */
export async function listFolder(request: FolderRequest): Promise<FolderView> {
  const root = await realpath(request.home).catch(() => {
    throw new NotFoundError('Your home folder cannot be read.', { code: 'no-home' });
  });
  const folder = await resolveFolder(root, request.path);
  let dirents: Dirent[];
  try {
    dirents = await readdir(folder, { withFileTypes: true });
  } catch {
    throw new NotFoundError('This folder cannot be read. Choose another one.', { code: 'unreadable-folder' });
  }
  const shown = dirents.filter((d) => request.hidden === true || !d.name.startsWith('.'));
  shown.sort((a, b) => compareEntries({ name: a.name, kind: a.isDirectory() ? 'folder' : 'other' }, { name: b.name, kind: b.isDirectory() ? 'folder' : 'other' }));
  const listed = await Promise.all(shown.slice(0, MAX_FOLDER_ENTRIES).map((d) => entryOf(root, folder, d)));
  const entries = listed.filter((e): e is FileEntryView => e !== null).sort(compareEntries);
  return { path: folder, crumbs: crumbsOf(root, folder), parent: folder === root ? null : dirname(folder), entries, truncated: shown.length > MAX_FOLDER_ENTRIES };
}

/** The real path of the folder asked for, refused unless it is a folder inside home. */
async function resolveFolder(root: string, path: string | undefined): Promise<string> {
  const asked = path === undefined ? root : resolve(root, path);
  let real: string;
  let info: Stats;
  try {
    real = await realpath(asked);
    info = await stat(real);
  } catch {
    throw new NotFoundError('This folder is no longer there.', { code: 'no-folder' });
  }
  if (!isInside(root, real)) throw new NotFoundError('Only folders in your home folder can be opened here.', { code: 'outside-home' });
  if (!info.isDirectory()) throw new NotFoundError('This is not a folder.', { code: 'not-a-folder' });
  return real;
}

/** One entry, or null when it leads outside home, cannot be read, or is neither file nor folder. */
async function entryOf(root: string, folder: string, dirent: Dirent): Promise<FileEntryView | null> {
  const path = join(folder, dirent.name);
  try {
    if (dirent.isSymbolicLink() && !isInside(root, await realpath(path))) return null;
    const info = await stat(path);
    if (!info.isDirectory() && !info.isFile()) return null;
    const isFolder = info.isDirectory();
    return { name: dirent.name, kind: fileKind(dirent.name, isFolder), size: isFolder ? null : info.size, modified: info.mtime.toISOString(), path };
  } catch {
    return null;
  }
}

/** Home ("Home") and each folder below it down to `folder`. */
function crumbsOf(root: string, folder: string): FolderView['crumbs'] {
  const crumbs = [{ name: 'Home', path: root }];
  const rel = relative(root, folder);
  if (rel === '') return crumbs;
  let at = root;
  for (const name of rel.split(sep)) {
    at = join(at, name);
    crumbs.push({ name, path: at });
  }
  return crumbs;
}
