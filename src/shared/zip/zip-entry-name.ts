/**
 * Rules for the names of zip entries, shared by the client's preflight and the node's extraction so
 * that a zip the client lets through is one the node accepts, and the other way round.
 */

/** Characters 0x80-0xFF of code page 437, the encoding of zip names without the UTF-8 flag. */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The name of a zip entry from its raw bytes. With the UTF-8 flag (bit 11) the bytes are UTF-8. Without
 * it, bytes that are valid UTF-8 are read as UTF-8 (Info-ZIP on Linux and macOS stores UTF-8 names
 * without setting the flag; `unzip` and 7-Zip read them so), anything else as code page 437.
 */
export function decodeEntryName(raw: Uint8Array, utf8Flag: boolean): string {
  if (utf8Flag) return new TextDecoder('utf-8').decode(raw);
  try {
    return strictUtf8.decode(raw);
  } catch {
    let out = '';
    for (const byte of raw) out += byte < 0x80 ? String.fromCharCode(byte) : CP437_HIGH[byte - 0x80]!;
    return out;
  }
}

/**
 * Whether an entry is macOS metadata rather than a file of the scene: anything under `__MACOSX/`
 * (Finder's zips) and AppleDouble `._name` files (resource forks written beside the real file).
 */
export function isMacMetadataEntry(name: string): boolean {
  const parts = name.replace(/\\/g, '/').split('/');
  if (parts[0] === '__MACOSX') return true;
  const last = parts.filter((p) => p !== '').pop() ?? '';
  return last.startsWith('._');
}

/** Where an entry lands inside the folder it is extracted into, or why it would leave it. */
export type EntryPathVerdict = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Where an entry named `name` lands, relative to the folder it is extracted into. Backslashes count as
 * folder separators (PowerShell's Compress-Archive writes them), `.` segments and repeated separators
 * are dropped, and `a/../b` is `b`. Refused: empty names, NUL bytes, absolute and UNC paths, drive
 * letters, and `..` that climbs out of the folder.
 */
export function entryPath(name: string): EntryPathVerdict {
  if (name === '') return { ok: false, reason: 'empty name' };
  if (name.includes('\0')) return { ok: false, reason: 'contains a NUL byte' };
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/')) return { ok: false, reason: 'absolute path' };
  if (/^[a-zA-Z]:/.test(slashed)) return { ok: false, reason: 'drive letter' };
  const kept: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (kept.length === 0) return { ok: false, reason: 'goes up with ".." out of the folder' };
      kept.pop();
    } else {
      kept.push(part);
    }
  }
  return { ok: true, path: kept.join('/') };
}
