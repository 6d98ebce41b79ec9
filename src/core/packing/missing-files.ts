import { basename, dirname, join } from 'node:path';
import type { FarmPlace, MissingReason } from './pack-summary';

/**
 * Which path of a file a person is shown: where it is on this disk, or the path the scene stores
 * (for a copy whose own folder says nothing to the artist, such as a file dropped in the browser).
 */
export type ArtistPaths = 'disk' | 'stored';

/** A file the farm will not have, as a person is told about it. */
export interface MissingFile {
  kind: string;
  owner: string;
  /** The artist's path of it (see ArtistPaths). */
  path: string;
  /** Why it does not travel, in a few words. */
  reason: string;
}

const REASON_TEXT: Record<MissingReason, string> = {
  'not-found': 'not on this computer',
  'other-system': 'a Windows path from another computer',
  'not-a-file': 'not a regular file',
  unreadable: 'cannot be read',
};

const DROPPED_ALONE = 'not sent: only the dropped scene reached Renderdrop, not the folder around it';

/** A place of the pack summary that does not travel, as a person is told about it. */
export function describeMissing(place: FarmPlace, paths: ArtistPaths, name: string | null = null): MissingFile {
  const path = shownPath(place, paths, name);
  const reason = paths === 'stored' && place.missing === 'not-found' ? DROPPED_ALONE : place.missing ? REASON_TEXT[place.missing] : 'does not travel with the scene';
  return { kind: place.kind, owner: place.owner, path, reason };
}

/** One sentence for a missing file: what uses it, its path, why it is missing. */
export function missingSentence(file: MissingFile): string {
  return `The ${file.kind} "${file.owner}" uses ${file.path}: ${file.reason}. The farm renders without it.`;
}

/**
 * The artist's path of a place, or of the file `name` of a numbered place (a frame or tile): on this
 * disk, or as stored.
 */
function shownPath(place: FarmPlace, paths: ArtistPaths, name: string | null): string {
  if (paths === 'stored') return name === null ? place.stored : place.stored.slice(0, Math.max(place.stored.lastIndexOf('/'), place.stored.lastIndexOf('\\')) + 1) + name;
  return name === null ? place.path : join(dirname(place.path), name);
}

/** The last segment of a path with either separator. */
export function lastSegment(path: string): string {
  return basename(path.replace(/\\/g, '/'));
}
