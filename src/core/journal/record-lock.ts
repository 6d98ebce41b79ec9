import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { JournalError, SubmissionBusyError } from '../errors';
import { abortableSleep } from '../util/abortable-sleep';

/** Who holds a record lock, as written in the lock file. */
export interface LockHolder {
  pid: number;
  host: string;
  token: string;
  since: string;
}

/**
 * A held lock on one journal record. `release` gives it up; it is synchronous so it completes even
 * when the process exits right after (as on Ctrl-C) instead of leaving a lock for the next run to
 * take over.
 */
export interface RecordLock {
  readonly path: string;
  release(): void;
}

const WRITE_GRACE_TRIES = 5;
const WRITE_GRACE_MS = 20;

/**
 * Takes the exclusive lock `path` (`<id>.lock` beside a journal record) for this process: the file is
 * created with `wx` and holds the pid, host name and a token. A lock whose process is gone (same host)
 * is taken over; one held by a live process throws SubmissionBusyError.
 */
export async function acquireRecordLock(path: string, subject: string): Promise<RecordLock> {
  const self: LockHolder = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex'), since: new Date().toISOString() };
  const content = JSON.stringify(self);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(path, content, { flag: 'wx', mode: 0o600 });
      return heldLock(path, self.token);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new JournalError(`Could not lock ${subject} in ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Check free space and permissions.`);
      }
    }
    const seen = await readHolder(path);
    if (seen === null) continue;
    const { raw, holder } = seen;
    if (holder !== null && isHeld(holder)) throw busyError(holder, path);
    await takeOver(path, raw, self.token);
  }
  throw new JournalError(`Could not lock ${subject}: ${path} keeps changing. If no other Renderdrop runs, delete it and try again.`, { code: 'busy' });
}

/** Whether the holder's process may still be running (one on another computer is assumed to be). */
function isHeld(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function heldLock(path: string, token: string): RecordLock {
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      try {
        if (parseHolder(readFileSync(path, 'utf8'))?.token === token) unlinkSync(path);
      } catch {
        // already gone, or unreadable: nothing of ours to remove
      }
    },
  };
}

/** The lock's content, waiting briefly while its creator may still be writing it; null when gone. */
async function readHolder(path: string): Promise<{ raw: string; holder: LockHolder | null } | null> {
  let raw = '';
  for (let tries = 0; tries < WRITE_GRACE_TRIES; tries++) {
    try {
      raw = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new JournalError(`Could not read the lock ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Check its permissions.`);
    }
    const holder = parseHolder(raw);
    if (holder !== null) return { raw, holder };
    await abortableSleep(WRITE_GRACE_MS);
  }
  return { raw, holder: null };
}

function parseHolder(raw: string): LockHolder | null {
  try {
    const value = JSON.parse(raw) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.token === 'string') {
      return { pid: value.pid, host: value.host, token: value.token, since: typeof value.since === 'string' ? value.since : '' };
    }
  } catch {
    // not JSON: left half-written by a process that died
  }
  return null;
}

/**
 * Removes a dead holder's lock. It is moved aside first and compared with what was judged dead, so
 * when another process took it over in between, its fresh lock is put back instead of deleted.
 */
async function takeOver(path: string, staleContent: string, token: string) {
  const aside = `${path}.${token}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new JournalError(`Could not take over the lock ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Check its permissions.`);
  }
  const moved = await readFile(aside, 'utf8').catch(() => null);
  if (moved !== staleContent) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
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
