import { basename, dirname, join } from 'node:path';
import { missingPlaces, type FarmPlace, type MissingReason, type PackSummary } from './pack-summary';

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
  /** What the artist can do so that it travels next time, as a sentence. */
  advice: string;
  /** Other data-blocks that use the same file, in words (`sequencer strip "Music"`). */
  also?: string[];
}

const REASON_TEXT: Record<MissingReason, string> = {
  'not-found': 'not on this computer',
  'other-system': 'a Windows path from another computer',
  'not-a-file': 'not a regular file',
  unreadable: 'cannot be read',
  'left-out': 'left out: it lies outside the project, or is a file Renderdrop never sends unasked',
};

const ADVICE: Record<MissingReason, string> = {
  'not-found': 'Put the file back at that path, or relink it in Blender (File > External Data > Find Missing Files) and save the scene.',
  'other-system': 'Relink it in Blender, or make the paths relative (File > External Data > Make Paths Relative) on the computer that has the file.',
  'not-a-file': 'Point the scene at the file itself in Blender and save the scene.',
  unreadable: 'Make the file readable (check its permissions) and send the scene again.',
  'left-out': 'Send the scene again and choose to send it (Send them anyway, --allow-outside or --project), or copy it into the scene\'s folder.',
};

const DROPPED_ALONE = 'not sent: only the dropped scene reached Renderdrop, not the folder around it';
const DROPPED_ALONE_ADVICE = "Pack the files into the .blend in Blender (File > External Data > Pack Resources), or send a .zip of the scene's folder.";
const ABSENT_FRAME = 'a frame missing from the sequence on this computer';
const ABSENT_TILE = 'a tile missing from the UDIM image on this computer';
const ABSENT_ADVICE = 'Put the missing frame or tile in that folder, or shorten the range in Blender, and send the scene again.';

/** A place of the pack summary that does not travel (or one frame or tile `name` of it), as a person is told about it. */
export function describeMissing(place: FarmPlace, paths: ArtistPaths, name: string | null = null): MissingFile {
  const path = shownPath(place, paths, name);
  const base = { kind: place.kind, owner: place.owner, path };
  if (paths === 'stored' && place.missing === 'not-found') return { ...base, reason: DROPPED_ALONE, advice: DROPPED_ALONE_ADVICE };
  if (place.missing) return { ...base, reason: REASON_TEXT[place.missing], advice: ADVICE[place.missing] };
  if (place.numbered) return { ...base, reason: place.inBundle?.includes('<') || place.stored.includes('<') ? ABSENT_TILE : ABSENT_FRAME, advice: ABSENT_ADVICE };
  return { ...base, reason: 'does not travel with the scene', advice: ADVICE['not-found'] };
}

/**
 * Every file the farm will not have, once each, by the artist's path: the places that do not travel
 * and the frames or tiles missing from numbered places that do. A file several data-blocks use is
 * told once, naming the others in `also`.
 */
export function missingFiles(summary: PackSummary | null, paths: ArtistPaths): MissingFile[] {
  const byPath = new Map<string, MissingFile>();
  for (const place of missingPlaces(summary)) {
    const files = place.missing !== null ? [describeMissing(place, paths)] : (place.absent ?? []).map((file) => describeMissing(place, paths, basename(file)));
    for (const file of files) {
      const same = byPath.get(file.path);
      if (!same) byPath.set(file.path, file);
      else if (same.kind !== file.kind || same.owner !== file.owner) same.also = [...(same.also ?? []), `${file.kind} "${file.owner}"`];
    }
  }
  return [...byPath.values()];
}

/** One sentence for a missing file: what uses it, its path, why it is missing, and what to do. */
export function missingSentence(file: MissingFile): string {
  const also = file.also && file.also.length > 0 ? ` (also used by the ${file.also.join(', the ')})` : '';
  return `The ${file.kind} "${file.owner}" uses ${file.path}${also}: ${file.reason}. The farm renders without it. ${file.advice}`;
}

/**
 * Whether a frame or tile `name` of a numbered place is one that is missing on this disk.
 */
export function isAbsent(place: FarmPlace, name: string): boolean {
  return (place.absent ?? []).some((file) => basename(file) === name);
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
