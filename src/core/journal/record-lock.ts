import { acquireFileLock, LockBusyError, LockError, type FileLock, type LockHolder } from '../../node-common/file-lock';
import { hostname } from 'node:os';
import { JournalError, SubmissionBusyError } from '../errors';

export type { LockHolder } from '../../node-common/file-lock';

/** A held lock on one journal record (see {@link FileLock}). */
export type RecordLock = FileLock;

/**
 * Takes the exclusive lock `path` (`<id>.lock` beside a journal record) for this process, through the
 * shared file lock (src/node-common/file-lock.ts). One held by a live process throws
 * SubmissionBusyError; a lock that cannot be written or read throws JournalError.
 */
export async function acquireRecordLock(path: string, subject: string): Promise<RecordLock> {
  try {
    return await acquireFileLock(path);
  } catch (error) {
    if (error instanceof LockBusyError) throw busyError(error.holder, path);
    if (error instanceof LockError) {
      if (error.step === 'contended') {
        throw new JournalError(`Could not lock ${subject}: ${path} keeps changing. If no other Renderdrop runs, delete it and try again.`, { code: 'busy' });
      }
      const hint = error.step === 'read' ? 'Check its permissions.' : 'Check free space and permissions.';
      throw new JournalError(`Could not ${error.step === 'create' ? `lock ${subject} in` : `${error.step} the lock`} ${path} (${error.code ?? 'error'}). ${hint}`);
    }
    throw error;
  }
}

function busyError(holder: LockHolder, path: string): SubmissionBusyError {
  if (holder.host !== hostname()) {
    return new SubmissionBusyError(
      `This submission is being continued by another Renderdrop (process ${holder.pid} on ${holder.host}). If none runs there, delete ${path}.`,
      holder,
    );
  }
  if (holder.pid === process.pid) return new SubmissionBusyError('This submission is already being continued by this Renderdrop.', holder);
  return new SubmissionBusyError(`This submission is being continued by another Renderdrop (process ${holder.pid}).`, holder);
}
