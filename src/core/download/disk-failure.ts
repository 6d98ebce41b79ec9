import { basename, dirname } from 'node:path';
import { errorCode, TransferError } from '../errors';
import { isTransientNetworkError } from '../transfer';

/** Whether an error the .part stream reported came from the file system (not passed on from the network). */
export function isFileSystemError(error: NodeJS.ErrnoException): boolean {
  return ['open', 'write', 'writev', 'close', 'fsync'].includes(error.syscall ?? '') && !isTransientNetworkError(error);
}

/** Runs a file system step of the download of `path`, turning its failure into a TransferError about the folder. */
export async function onDisk<T>(path: string, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    throw diskFailure(path, error);
  }
}

/** A local disk failure (full, read-only, no permission, something in the way): retrying cannot help. */
export function diskFailure(path: string, error: unknown): TransferError {
  const dir = dirname(path);
  const code = errorCode(error) ?? 'EIO';
  const inTheWay = error instanceof Error && 'path' in error && typeof error.path === 'string' ? error.path : null;
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new TransferError(`Not enough space in ${dir} to download ${basename(path)}. Free some space, then run the download again; it resumes.`, { code: 'disk-full' });
    case 'EACCES':
    case 'EPERM':
      return new TransferError(`Cannot write to ${dir}: permission denied. Choose another download folder or change its permissions.`, { code: 'disk-denied' });
    case 'EROFS':
      return new TransferError(`Cannot write to ${dir}: the disk is read-only. Choose another download folder.`, { code: 'disk-read-only' });
    case 'EISDIR':
    case 'ENOTDIR':
    case 'EEXIST':
    case 'ENOTEMPTY':
      return new TransferError(
        `Cannot write to ${dir}: ${inTheWay ? `"${inTheWay}"` : `a file or folder on the way to ${basename(path)}`} is in the way (${code}). Move it aside, then run the download again.`,
        { code: 'disk-in-the-way' },
      );
    default:
      return new TransferError(`Cannot write to ${dir} (${code}). Check the disk, then run the download again; it resumes.`, { code: 'disk-error' });
  }
}
