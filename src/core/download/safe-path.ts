import { resolve, sep } from 'node:path';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * One path segment made safe to create on Windows, macOS and Linux: forbidden and control characters
 * become `_`, trailing dots and spaces go, reserved device names and `.`/`..` are defused.
 */
export function sanitizeSegment(segment: string): string {
  let out = [...segment].map((ch) => (ch.charCodeAt(0) < 32 || '<>:"|?*/\\'.includes(ch) ? '_' : ch)).join('');
  out = out.replace(/[. ]+$/, '');
  if (out === '' || out === '.' || out === '..') return '_';
  if (WINDOWS_RESERVED.test(out)) out = `_${out}`;
  return out.length > 200 ? out.slice(0, 200) : out;
}

/**
 * A relative path (from a server or an archive) made safe: backslashes count as separators, empty,
 * `.` and leading separators are dropped, `..` and drive letters are defused, every segment sanitised.
 * The result never leaves the folder it is joined to.
 */
export function sanitizeRelativePath(path: string): string {
  const segments = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .map((s) => (s === '..' ? '_' : sanitizeSegment(s)));
  return segments.length === 0 ? '_' : segments.join('/');
}

/** Joins a sanitised relative path to `root` and checks the result stays inside it. */
export function resolveInside(root: string, relativePath: string): string {
  const base = resolve(root);
  const full = resolve(base, sanitizeRelativePath(relativePath));
  if (!full.startsWith(base + sep)) throw new Error(`Refusing to write outside ${base}: ${relativePath}`);
  return full;
}
