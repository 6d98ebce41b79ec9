import { describeMissing, type ArtistPaths, missingPlaces, type PackSummary } from '../../core/packing';
import type { AnalysisWarning } from '../../shared/api';
import type { SceneFilesView } from '../../shared/contract';

type Place = Parameters<typeof describeMissing>[0];

/** Why a file a scene dropped in the browser uses by a relative path is not known to be there. */
export const UNCHECKED_REASON = 'could not be checked: the browser sent only the scene, not the folder around it';

/** What to do about a file that could not be checked. */
export const UNCHECKED_ADVICE = 'Open the scene from disk instead: Renderdrop then sends it with the files it uses.';

/** How a file is told: what a dropped scene's missing file is called, and a file looked for on this computer. */
function tellings(): { dropped: Record<string, unknown>; onDisk: Record<string, unknown> } {
  const place: Place = { kind: '', owner: '', stored: '//', inBundle: null, path: '//', numbered: false, travels: false, missing: 'not-found' };
  return { dropped: { ...describeMissing(place, 'stored') }, onDisk: { ...describeMissing(place, 'disk') } };
}

/** Whether a path is relative to the scene's folder, as Blender stores it. */
function isRelative(path: string): boolean {
  return path.startsWith('//');
}

/**
 * The files of a scene that reached Renderdrop as bytes only (`paths` "stored"), told as they are: one
 * used by a relative path could not be looked for (`unchecked`, it may well be on the disk); one used by
 * an absolute path was looked for on this computer and is truly missing. From disk, nothing changes.
 */
export function markUnchecked<F extends { path: string; reason: string }>(files: readonly F[], paths: ArtistPaths): (F & { unchecked?: boolean })[] {
  if (paths !== 'stored') return [...files];
  const { dropped, onDisk } = tellings();
  return files.map((file) => {
    if (file.reason !== dropped.reason) return file;
    const advice = 'advice' in file ? { advice: isRelative(file.path) ? UNCHECKED_ADVICE : onDisk.advice } : {};
    return isRelative(file.path) ? { ...file, reason: UNCHECKED_REASON, ...advice, unchecked: true } : { ...file, reason: String(onDisk.reason), ...advice };
  });
}

/** Whether a missing place could not be looked for: a relative path of a scene that came as bytes only. */
function isUnchecked(place: Place, paths: ArtistPaths): boolean {
  return paths === 'stored' && place.missing === 'not-found' && isRelative(place.stored);
}

/** The files a traced scene uses: found on this computer, gone, or not checked. */
export function sceneFilesOf(summary: PackSummary, paths: ArtistPaths): SceneFilesView {
  const missing = missingPlaces(summary).filter((place) => place.missing !== null);
  const unchecked = missing.filter((place) => isUnchecked(place, paths)).length;
  return { found: Math.max(0, summary.files - 1), gone: missing.length - unchecked, unchecked, bytesOnly: paths === 'stored' };
}

/**
 * The review's warnings of a scene that reached Renderdrop as bytes only, told as markUnchecked tells
 * its files: a relative file is unchecked, an absolute one is not on this computer. Other warnings stay.
 */
export function warningsForArtist(warnings: readonly AnalysisWarning[], paths: ArtistPaths): AnalysisWarning[] {
  if (paths !== 'stored') return [...warnings];
  const { dropped, onDisk } = tellings();
  const swap = (text: string, from: unknown, to: unknown) => (typeof from === 'string' && typeof to === 'string' && from !== '' ? text.split(from).join(to) : text);
  return warnings.map((w) => {
    if (w.code !== 'missing-dependency' || w.path === undefined || typeof dropped.reason !== 'string' || !w.message.includes(dropped.reason)) return w;
    const relative = isRelative(w.path);
    const reason = swap(w.message, dropped.reason, relative ? UNCHECKED_REASON : onDisk.reason);
    return { ...w, message: swap(reason, dropped.advice, relative ? UNCHECKED_ADVICE : onDisk.advice) };
  });
}
