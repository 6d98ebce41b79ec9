/**
 * Why a path from an archive or a server would escape the folder it is extracted or saved into, or null
 * when it stays inside: absolute paths, drive letters, UNC and backslash paths, `..` segments, NUL bytes.
 */
export function unsafePathReason(name: string): string | null {
  if (name === '') return 'empty name';
  if (name.includes('\0')) return 'contains a NUL byte';
  if (name.includes('\\')) return 'contains a backslash';
  if (name.startsWith('/')) return 'absolute path';
  if (/^[a-zA-Z]:/.test(name)) return 'drive letter';
  if (name.split('/').some((part) => part === '..')) return 'goes up with ".."';
  return null;
}
