import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** Who holds a lock, as written in the lock file. */
export interface LockHolder {
  pid: number;
  host: string;
  token: string;
  since: string;
}

/**
 * A held lock. `release` gives it up; it is synchronous so it completes even when the process exits
 * right after (as on Ctrl-C), and it removes the file only while it is still this holder's.
 */
export interface FileLock {
  readonly path: string;
  release(): void;
}

/** The lock is held by a process that may still be running (on this computer, or on another one). */
export class LockBusyError extends Error {
  constructor(
    readonly path: string,
    readonly holder: LockHolder,
  ) {
    super(`${path} is held by process ${holder.pid} on ${holder.host}`);
    this.name = 'LockBusyError';
  }
}

/** The lock file could not be written, read or taken over; `code` is the system's error code, if any. */
export class LockError extends Error {
  constructor(
    readonly path: string,
    readonly step: 'create' | 'read' | 'take-over' | 'contended',
    readonly code: string | undefined,
  ) {
    super(`Could not ${step === 'contended' ? 'settle' : step} the lock ${path}${code ? ` (${code})` : ''}`);
    this.name = 'LockError';
  }
}

const WRITE_GRACE_TRIES = 5;
const WRITE_GRACE_MS = 20;
/** How long (in tries of WRITE_GRACE_MS) to wait for another process breaking the same stale lock. */
const BREAK_TRIES = 50;

const errnoOf = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/**
 * Take the exclusive lock `path` for this process: the file is created with `wx` and holds the pid, the
 * host name and a random token. A lock whose process is gone (same host) is taken over without a race
 * (see {@link takeOver}). A lock held by a live process throws {@link LockBusyError}; anything else {@link LockError}.
 */
export async function acquireFileLock(path: string): Promise<FileLock> {
  const self: LockHolder = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex'), since: new Date().toISOString() };
  const content = JSON.stringify(self);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(path, content, { flag: 'wx', mode: 0o600 });
      return heldLock(path, self.token);
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw new LockError(path, 'create', errnoOf(error));
    }
    const seen = await readHolder(path);
    if (seen === null) continue;
    if (seen.holder !== null && isHeld(seen.holder)) throw new LockBusyError(path, seen.holder);
    await takeOver(path, seen.raw, self);
  }
  throw new LockError(path, 'contended', undefined);
}

/** Whether the holder's process may still be running (one on another computer is assumed to be). */
function isHeld(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM';
  }
}

function heldLock(path: string, token: string): FileLock {
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
      if (errnoOf(error) === 'ENOENT') return null;
      throw new LockError(path, 'read', errnoOf(error));
    }
    const holder = parseHolder(raw);
    if (holder !== null) return { raw, holder };
    await sleep(WRITE_GRACE_MS);
  }
  return { raw, holder: null };
}

/** The holder a lock file names, or null when it is not one (half-written by a process that died). */
export function parseHolder(raw: string): LockHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { pid, host, token, since } = { pid: undefined, host: undefined, token: undefined, since: undefined, ...value };
  if (typeof pid !== 'number' || typeof host !== 'string' || typeof token !== 'string') return null;
  return { pid, host, token, since: typeof since === 'string' ? since : '' };
}

/**
 * Remove a lock whose holder is gone, while holding the lock's breaker (`<path>.break`, taken with
 * `wx` like the lock): the file is removed only if it still holds the stale content, so a fresh lock
 * that another process took meanwhile is never touched. A breaker left by a process that died is removed.
 */
async function takeOver(path: string, staleContent: string, self: LockHolder): Promise<void> {
  const breaker = `${path}.break`;
  const mine = JSON.stringify(self);
  for (let tries = 0; ; tries++) {
    try {
      await writeFile(breaker, mine, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw new LockError(path, 'take-over', errnoOf(error));
    }
    const other = await readHolder(breaker);
    if (other?.holder && !isHeld(other.holder)) await unlink(breaker).catch(() => undefined);
    else if (tries >= BREAK_TRIES) return;
    else await sleep(WRITE_GRACE_MS);
  }
  try {
    const current = await readFile(path, 'utf8').catch(() => null);
    if (current === staleContent) await unlink(path).catch(() => undefined);
  } finally {
    heldLock(breaker, self.token).release();
  }
}
