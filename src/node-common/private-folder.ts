import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

/** A folder others can read that Renderdrop may not make private (it belongs to another user, or a read-only disk). */
export class FolderNotPrivateError extends Error {
  override readonly name = 'FolderNotPrivateError';
}

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(3, '0');

/**
 * Makes `dir` (and any folder missing above it) exist with mode 0700 whatever the umask, and makes an
 * existing folder that other users of this computer can read or enter (any group or other bit) private
 * again. Returns one line saying what was repaired, or null when nothing was; throws a
 * FolderNotPrivateError, in one line, when the folder is open to others and cannot be changed.
 * Windows keeps its own access lists: nothing is checked there.
 */
export function ensurePrivateFolder(dir: string, what: string): string | null {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return null;
  const info = statSync(dir);
  const mode = info.mode;
  if ((mode & 0o077) === 0) return null;
  const refuse = (why: string) =>
    new FolderNotPrivateError(`The ${what} ${dir} can be read by other users of this computer (mode ${octal(mode)}) and Renderdrop does not change that (${why}): make it private (chmod 700 ${dir}) or use another folder.`);
  // A shared folder (sticky, like /tmp) or one of another user is never changed, not even by root.
  if ((mode & 0o1000) !== 0) throw refuse('it is a shared folder');
  if (process.getuid && info.uid !== process.getuid()) throw refuse('it belongs to another user');
  try {
    chmodSync(dir, 0o700);
  } catch (error) {
    throw refuse((error as NodeJS.ErrnoException).code ?? 'refused');
  }
  return `The ${what} ${dir} could be read by other users of this computer (mode ${octal(mode)}); Renderdrop made it private (700).`;
}

/**
 * Makes `path` exist as a file only its owner can read and write (0600, whatever the umask), creating
 * it empty when missing and taking the group and other bits off one that exists.
 */
export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
}

/**
 * Writes `value` as JSON to `path`, readable and writable by this user only (0600), in a folder made
 * 0700 when missing, replacing an earlier file in one rename so a reader never sees half a file or a
 * moment where others could read it. `tag` makes the temporary name unique per writer.
 */
export async function writePrivateJsonFile(path: string, value: unknown, tag: string | number): Promise<string> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${tag}.${Date.now()}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(value)}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return path;
}
