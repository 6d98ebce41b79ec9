import { entryPath } from './zip-entry-name';

/**
 * Which scene of a zip renders, by one rule the client and the node share, so the client knows
 * before the upload whether the node will need to be told.
 */

/** The scene a zip renders when none is named, or why it cannot tell. */
export type DefaultScene = { kind: 'one'; path: string } | { kind: 'none' } | { kind: 'several'; candidates: string[] };

/** The `.blend` files among a zip's file paths (any case of the extension). */
export function blendFilesOf(paths: readonly string[]): string[] {
  return paths.filter((path) => path.toLowerCase().endsWith('.blend'));
}

/**
 * The scene of a zip whose `.blend` files are `blends` when none is named: the only one at its top
 * (those below are libraries), else the only one in it. Several at the top, or several below and
 * none at the top, are `several`, with the candidates a person chooses from.
 */
export function defaultScene(blends: readonly string[]): DefaultScene {
  if (blends.length === 0) return { kind: 'none' };
  const top = blends.filter((path) => !path.includes('/'));
  if (top.length === 1) return { kind: 'one', path: top[0]! };
  if (top.length === 0 && blends.length === 1) return { kind: 'one', path: blends[0]! };
  return { kind: 'several', candidates: top.length > 1 ? top : [...blends] };
}

/**
 * The `.blend` of the zip a person named (with `\` or `/`, `../` and the like, as the zip's own names
 * are read), or null when the zip has no such scene.
 */
export function namedScene(blends: readonly string[], requested: string): string | null {
  const wanted = entryPath(requested);
  return wanted.ok && blends.includes(wanted.path) ? wanted.path : null;
}
