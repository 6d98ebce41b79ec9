import { entryPath } from '../../shared/zip';

/**
 * Why a zip entry name would escape the folder it is extracted into, or null when it stays inside (the
 * shared rule of src/shared/zip/zip-entry-name.ts: backslashes are separators, only real escapes count).
 */
export function unsafePathReason(name: string): string | null {
  const verdict = entryPath(name);
  return verdict.ok ? null : verdict.reason;
}
