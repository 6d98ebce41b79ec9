import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The folders of a home whose every file is compared: Blender's preferences and add-ons, Renderdrop's
 * settings, downloads and caches, and the keyrings (Linux and macOS places).
 */
export const WATCHED_FOLDERS = [
  '.config/blender',
  '.config/renderdrop',
  '.config/Renderdrop',
  '.cache/renderdrop',
  '.local/share/keyrings',
  'Renderdrop',
  'Library/Application Support/Blender',
  'Library/Application Support/renderdrop',
  'Library/Application Support/Renderdrop',
  'Library/Keychains',
];

/** Folders of a home whose list of entries is compared (a new entry there is a change). */
export const LISTED_FOLDERS = ['', '.config', '.local/share', '.cache'];

/** What a home holds where tests must not write: one line per path (kind, size and hash of each file). */
export type HomeSnapshot = Map<string, string>;

const MAX_ENTRIES = 50_000;

/** Reads the watched folders and the listed entries of `home`; a home that does not exist is empty. */
export function snapshotHome(home: string): HomeSnapshot {
  const snapshot: HomeSnapshot = new Map();
  for (const folder of LISTED_FOLDERS) {
    for (const name of entriesOf(join(home, folder))) snapshot.set(join(folder, name), 'entry');
  }
  for (const folder of WATCHED_FOLDERS) walk(home, folder, snapshot);
  return snapshot;
}

/** The paths that differ between two snapshots, each with what happened to it. */
export function homeChanges(before: HomeSnapshot, after: HomeSnapshot): string[] {
  const changes: string[] = [];
  for (const [path, was] of before) {
    const now = after.get(path);
    if (now === undefined) changes.push(`${path} removed`);
    else if (now !== was) changes.push(`${path} changed`);
  }
  for (const path of after.keys()) if (!before.has(path)) changes.push(`${path} added`);
  return changes.sort();
}

function entriesOf(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
}

function walk(home: string, relative: string, into: HomeSnapshot): void {
  const path = join(home, relative);
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return;
  }
  if (into.size >= MAX_ENTRIES) return;
  if (stat.isSymbolicLink()) into.set(relative, `link ${readlinkSync(path)}`);
  else if (stat.isFile()) into.set(relative, `file ${stat.size} ${hashOf(path)}`);
  else if (stat.isDirectory()) {
    into.set(relative, 'folder');
    for (const name of entriesOf(path)) walk(home, join(relative, name), into);
  } else into.set(relative, 'other');
}

function hashOf(path: string): string {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch (err) {
    return `unreadable (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}
