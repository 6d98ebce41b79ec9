import type yauzl from 'yauzl';
import { decodeEntryName } from '../shared/zip';

/**
 * The name of an entry of a zip opened with `decodeStrings: false` (yauzl then hands the raw bytes),
 * decoded by the shared rule: UTF-8 when flagged or valid, code page 437 otherwise.
 */
export function entryName(entry: yauzl.Entry): string {
  const raw: unknown = entry.fileName;
  const bytes = raw instanceof Uint8Array ? raw : Buffer.from(String(raw), 'utf8');
  return decodeEntryName(bytes, (entry.generalPurposeBitFlag & 0x800) !== 0);
}

/** Whether an entry is a symbolic link (unix file type in the high bits of its external attributes). */
export function isSymlinkEntry(entry: yauzl.Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}
