import { join } from 'node:path';
import { acquireFileLock, LockBusyError, LockError, type FileLock } from '../../node-common/file-lock';
import { hostname } from 'node:os';

/** A held lock on a node data folder; `release` gives it up. */
export type DataLock = FileLock;

/**
 * Make sure only one render node serves a data folder at a time: two would each treat the other's
 * Blender processes as leftovers of a crash and kill them, and run the same queued jobs. A lock left by
 * a node that died is taken over (without a race, by the shared file lock).
 */
export async function acquireDataLock(dataDir: string): Promise<DataLock> {
  const path = join(dataDir, 'node.lock');
  try {
    return await acquireFileLock(path);
  } catch (error) {
    if (error instanceof LockBusyError) {
      const { pid, host } = error.holder;
      throw new Error(
        `The data folder ${dataDir} is in use by another render node (process ${pid}${host === hostname() ? '' : ` on ${host}`}). ` +
          `Stop it or use another --data folder; if no node runs, delete ${path}.`,
        { cause: error },
      );
    }
    if (error instanceof LockError) {
      throw new Error(`Could not lock the data folder ${dataDir}${error.code ? ` (${error.code})` : ''}; check its permissions, or delete ${path} if no render node runs.`, {
        cause: error,
      });
    }
    throw error;
  }
}
