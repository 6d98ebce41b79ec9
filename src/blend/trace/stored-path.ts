import { posix, win32 } from 'node:path';

/** Path rules of the computer the scene is traced on. */
export type PathPlatform = 'posix' | 'win32';

/** Where a stored path points on this disk, or why it points nowhere. */
export type StoredPathTarget =
  | { kind: 'path'; candidates: string[] }
  | { kind: 'empty' }
  /** A Windows path (`C:\...`, `\\server\share\...`) met on macOS or Linux. */
  | { kind: 'other-system' };

const WINDOWS_DRIVE = /^[A-Za-z]:[\\/]/;
const WINDOWS_UNC = /^\\\\[^\\/]+[\\/]/;

/** A Windows drive or UNC path. */
export function isWindowsAbsolute(stored: string): boolean {
  return WINDOWS_DRIVE.test(stored) || WINDOWS_UNC.test(stored);
}

/** A path Blender resolves against the folder of the .blend holding it (`//textures/a.png`). */
export function isBlendRelative(stored: string): boolean {
  return stored.startsWith('//');
}

/**
 * Where a stored path points, given the folder of the .blend that stores it: `//` relative to that
 * folder (also `//../`), absolute POSIX and Windows paths, and bare relative paths (taken as relative
 * to that folder). Paths saved on Windows may use backslashes; on POSIX the literal name is tried
 * first, then the path with backslashes as separators.
 */
export function storedPathTarget(stored: string, holderDir: string, platform: PathPlatform): StoredPathTarget {
  if (stored === '') return { kind: 'empty' };
  if (platform === 'win32') {
    if (isBlendRelative(stored)) return { kind: 'path', candidates: [win32.resolve(holderDir, stored.slice(2))] };
    if (isWindowsAbsolute(stored)) return { kind: 'path', candidates: [win32.normalize(stored)] };
    if (stored.startsWith('/')) return { kind: 'path', candidates: [win32.resolve(holderDir.slice(0, 2) + stored)] };
    return { kind: 'path', candidates: [win32.resolve(holderDir, stored)] };
  }
  if (isWindowsAbsolute(stored)) return { kind: 'other-system' };
  const rest = isBlendRelative(stored) ? stored.slice(2) : stored;
  const literal = stored.startsWith('/') && !isBlendRelative(stored) ? posix.normalize(stored) : posix.resolve(holderDir, rest);
  if (!rest.includes('\\')) return { kind: 'path', candidates: [literal] };
  const slashed = rest.replace(/\\/g, '/');
  const converted = slashed.startsWith('/') && !isBlendRelative(stored) ? posix.normalize(slashed) : posix.resolve(holderDir, slashed);
  return { kind: 'path', candidates: [literal, converted] };
}

/** The file-name part of a stored path (after the last `/` or `\`). */
export function storedBaseName(stored: string): string {
  const at = Math.max(stored.lastIndexOf('/'), stored.lastIndexOf('\\'));
  return stored.slice(at + 1);
}

/** Whether a stored path ends with a separator (a folder named as such). */
export function endsWithSeparator(stored: string): boolean {
  return stored.endsWith('/') || stored.endsWith('\\');
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A pattern matching every frame file of a numbered file name: the last run of `#` (Blender's frame
 * placeholder) or, for `digits`, the last run of digits. Null when the name has no such run.
 */
export function framePattern(fileName: string, placeholder: 'hash' | 'digits'): RegExp | null {
  const match = placeholder === 'hash' ? /^(.*?)(#+)([^#]*)$/.exec(fileName) : /^(.*?)(\d+)(\D*)$/.exec(fileName);
  if (!match) return null;
  return new RegExp(`^${escape(match[1]!)}\\d{${match[2]!.length},}${escape(match[3]!)}$`);
}

/** Longest run of frames a sequence is checked for holes over; wider ranges are not checked. */
const HOLE_RANGE_LIMIT = 100_000;

/**
 * The file names missing between the lowest and highest frame of a numbered file name's sequence, given
 * the names found on disk (as `framePattern` matches them), at most `limit` of them. Frames are padded
 * to the width of the name's own run.
 */
export function frameHoles(fileName: string, placeholder: 'hash' | 'digits', found: readonly string[], limit = 1000): string[] {
  const match = placeholder === 'hash' ? /^(.*?)(#+)([^#]*)$/.exec(fileName) : /^(.*?)(\d+)(\D*)$/.exec(fileName);
  if (!match) return [];
  const [, prefix, run, suffix] = match as unknown as [string, string, string, string];
  const frames = new Set(found.map((name) => Number(name.slice(prefix.length, name.length - suffix.length))).filter(Number.isSafeInteger));
  if (frames.size < 2) return [];
  const sorted = [...frames].sort((a, b) => a - b);
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  if (last - first > HOLE_RANGE_LIMIT) return [];
  const holes: string[] = [];
  for (let frame = first + 1; frame < last && holes.length < limit; frame++) {
    if (!frames.has(frame)) holes.push(`${prefix}${String(frame).padStart(run.length, '0')}${suffix}`);
  }
  return holes;
}

/**
 * The file name of each UDIM tile: `<UDIM>` becomes the tile number (1001...), `<UVTILE>` becomes
 * `u1_v1`...; a name without a token but with a tile number in it (older files) has that number replaced.
 */
export function udimFileNames(fileName: string, tiles: readonly number[]): string[] {
  const numbers = tiles.length > 0 ? tiles : [1001];
  if (fileName.includes('<UDIM>')) return numbers.map((tile) => fileName.split('<UDIM>').join(String(tile)));
  if (fileName.includes('<UVTILE>')) {
    return numbers.map((tile) => {
      const index = tile - 1001;
      return fileName.split('<UVTILE>').join(`u${(index % 10) + 1}_v${Math.floor(index / 10) + 1}`);
    });
  }
  const match = /^(.*)(1\d{3})(\D*)$/.exec(fileName);
  if (!match) return [fileName];
  return numbers.map((tile) => `${match[1]}${tile}${match[3]}`);
}
