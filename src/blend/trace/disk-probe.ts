import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { mapLimit } from './map-limit';

/** Files looked at on disk at the same time. */
const PROBES_AT_ONCE = 32;

/** One file found on disk. */
export interface FoundFile {
  path: string;
  size: number;
  /** Last modification, to tell whether it changed since it was traced. */
  mtimeMs: number;
}

/** What is at a path: a readable file, a folder, nothing, or something that cannot be read. */
export type ProbeResult =
  | { status: 'file'; file: FoundFile }
  | { status: 'directory' }
  | { status: 'missing' }
  /** A device, socket or pipe: not something to pack. */
  | { status: 'not-a-file' }
  | { status: 'unreadable'; reason: string };

const errorCode = (error: unknown) => (typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '');

/** Look at one path (following symbolic links). */
export async function probePath(path: string): Promise<ProbeResult> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    return { status: 'unreadable', reason: reasonOf(code, error) };
  }
  if (info.isDirectory()) return { status: 'directory' };
  if (!info.isFile()) return { status: 'not-a-file' };
  try {
    await access(path, constants.R_OK);
  } catch (error) {
    return { status: 'unreadable', reason: reasonOf(errorCode(error), error) };
  }
  return { status: 'file', file: { path, size: info.size, mtimeMs: info.mtimeMs } };
}

function reasonOf(code: string, error: unknown): string {
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'it is a loop of symbolic links';
  return error instanceof Error ? error.message : String(error);
}

/** The readable files in `dir` whose names match `pattern`, sorted by name. */
export async function matchingFiles(dir: string, pattern: RegExp): Promise<FoundFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const probes = await mapLimit(names.filter((n) => pattern.test(n)).sort(), PROBES_AT_ONCE, (name) => probePath(join(dir, name)));
  return probes.flatMap((probe) => (probe.status === 'file' ? [probe.file] : []));
}

/** Backups Blender writes beside a .blend (`scene.blend1`, `scene.blend2`...): never packed. */
export const BLEND_BACKUP = /\.blend\d+$/i;

/** Result of walking a folder of cache files. */
export interface FolderFiles {
  files: FoundFile[];
  /** Files that exist but cannot be read. */
  unreadable: string[];
  /** True when the walk stopped at `limit` files. */
  truncated: boolean;
  /** Folders below it that were not entered because `mayList` refused them. */
  outside: string[];
}

/** Whether a folder may be listed; see TraceOptions.mayList. */
export type MayList = (folder: string) => Promise<boolean>;

/**
 * Every readable file under `dir` (sorted, depth first), without .blend backups, up to `limit` files.
 * A folder below it that `mayList` refuses (a link leading out of the project) is not entered.
 */
export async function filesUnder(dir: string, limit: number, mayList?: MayList): Promise<FolderFiles> {
  const result: FolderFiles = { files: [], unreadable: [], truncated: false, outside: [] };
  const visited = new Set<string>();
  await walk(dir, result, limit, visited, 0, mayList);
  return result;
}

async function walk(dir: string, out: FolderFiles, limit: number, visited: Set<string>, depth: number, mayList?: MayList): Promise<void> {
  if (depth > 32 || visited.has(dir)) return;
  visited.add(dir);
  if (depth > 0 && mayList && !(await mayList(dir))) {
    out.outside.push(dir);
    return;
  }
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    out.unreadable.push(dir);
    return;
  }
  const paths = names.filter((name) => !BLEND_BACKUP.test(name)).map((name) => join(dir, name));
  const probes = await mapLimit(paths, PROBES_AT_ONCE, probePath);
  for (const [i, probe] of probes.entries()) {
    if (out.files.length >= limit) {
      out.truncated = true;
      return;
    }
    if (probe.status === 'file') out.files.push(probe.file);
    else if (probe.status === 'directory') await walk(paths[i]!, out, limit, visited, depth + 1, mayList);
    else if (probe.status === 'unreadable') out.unreadable.push(paths[i]!);
  }
}
