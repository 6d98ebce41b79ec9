import { basename } from 'node:path';
import { BlendError } from './blend-error';
import { SdnaFormatError } from './sdna';

/** Why a .blend could not be read. */
export type BlendFileErrorCode =
  | 'not-found'
  | 'unreadable'
  | 'not-a-file'
  | 'not-blend'
  | 'truncated'
  | 'corrupt'
  | 'unsupported';

/**
 * A .blend (or a file given as one) that cannot be read. The message names the file and says what
 * to do; `path` is the file on this disk.
 */
export class BlendFileError extends BlendError {
  readonly code: BlendFileErrorCode;
  readonly path: string;

  constructor(code: BlendFileErrorCode, path: string, message: string) {
    super(message);
    this.name = 'BlendFileError';
    this.code = code;
    this.path = path;
  }
}

/** The sentence that names a damaged file and what to do about it. */
export function damagedMessage(path: string, what: string): string {
  return `${basename(path)} is damaged: ${what}. Open it in Blender and save it again, or use a backup (${path}).`;
}

/** A BlendFileError for a file that ends before its data does. */
export function truncatedError(path: string, what: string): BlendFileError {
  return new BlendFileError('truncated', path, `${basename(path)} is incomplete: ${what}. It may still be copying or was cut short; save it again from Blender (${path}).`);
}

/** A BlendFileError for data that does not make sense. */
export function corruptError(path: string, what: string): BlendFileError {
  return new BlendFileError('corrupt', path, damagedMessage(path, what));
}

/**
 * Any error met while reading `path` as the BlendFileError it stands for: a BlendFileError as it is,
 * a file system error as such, and anything else the bytes made the reader trip on (a bad structure
 * description, an offset out of range, a field that is not there) as a damaged file, so bad bytes
 * always end in one sentence for the artist.
 */
export function asBlendFileError(path: string, error: unknown): BlendFileError {
  if (error instanceof BlendFileError) return error;
  if (typeof error === 'object' && error !== null && 'syscall' in error) return fileSystemError(path, error);
  if (error instanceof SdnaFormatError) return corruptError(path, error.message);
  return corruptError(path, 'its contents do not make sense');
}

/** The BlendFileError for a file system error while opening or reading `path`. */
export function fileSystemError(path: string, error: unknown): BlendFileError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const name = basename(path);
  if (code === 'ENOENT') return new BlendFileError('not-found', path, `${name} does not exist (${path}).`);
  if (code === 'EISDIR') return new BlendFileError('not-a-file', path, `${name} is a folder, not a .blend file (${path}).`);
  if (code === 'EACCES' || code === 'EPERM') {
    return new BlendFileError('unreadable', path, `${name} cannot be read: permission denied. Check the file's permissions (${path}).`);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new BlendFileError('unreadable', path, `${name} cannot be read (${detail}).`);
}
