import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { open, readFile, stat, unlink } from 'node:fs/promises';
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
/** A breaker this old is left by a process that died or hangs: it is removed. */
const STALE_BREAKER_MS = 10_000;

const errnoOf = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/**
 * Take the exclusive lock `path` for this process: the file is created with `wx` and holds the pid, the
 * host name and a random token. A lock whose process is gone (same host) is taken over without a race
 * (see {@link takeOver}). A lock held by a live process throws {@link LockBusyError}; anything else {@link LockError}.
 */
export async function acquireFileLock(path: string, options: { staleBreakerMs?: number } = {}): Promise<FileLock> {
  const self: LockHolder = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex'), since: new Date().toISOString() };
  const content = JSON.stringify(self);
  for (let attempt = 0; attempt < 3; attempt++) {
    const created = await createExclusive(path, content);
    if (created === 'created') return heldLock(path, self.token);
    if (created !== 'EEXIST') throw new LockError(path, 'create', created);
    const seen = await readHolder(path);
    if (seen === null) continue;
    if (seen.holder !== null && isHeld(seen.holder)) throw new LockBusyError(path, seen.holder);
    await takeOver(path, seen.raw, self, options.staleBreakerMs ?? STALE_BREAKER_MS);
  }
  throw new LockError(path, 'contended', undefined);
}

/**
 * Create `path` only if it does not exist and write `content` into it. A file that could be created but
 * not written (a full disk) is removed again, so no empty lock is left behind. Answers 'created', or the
 * system's error code ('EEXIST' when the file is there) or undefined when there is none.
 */
async function createExclusive(path: string, content: string): Promise<'created' | string | undefined> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    return errnoOf(error);
  }
  try {
    await handle.writeFile(content);
    return 'created';
  } catch (error) {
    await unlink(path).catch(() => undefined);
    return errnoOf(error);
  } finally {
    await handle.close().catch(() => undefined);
  }
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
 * Remove a lock whose holder is gone, while holding the lock's breaker (`<path>.break`, created with
 * `wx` like the lock): the lock is removed only if it still holds the stale content, so a fresh lock
 * that another process took meanwhile is never touched. The breaker holds its owner when the disk lets
 * it be written (a full disk leaves it empty: it needs no space then); a breaker whose owner is gone, or
 * older than `staleBreakerMs` (its owner died or hangs), is removed.
 */
async function takeOver(path: string, staleContent: string, self: LockHolder, staleBreakerMs: number): Promise<void> {
  const breaker = `${path}.break`;
  for (let tries = 0; ; tries++) {
    const created = await createBreaker(breaker, JSON.stringify(self));
    if (created === 'created') break;
    if (created !== 'EEXIST') throw new LockError(path, 'take-over', created);
    if (await isStaleBreaker(breaker, staleBreakerMs)) await unlink(breaker).catch(() => undefined);
    else if (tries >= BREAK_TRIES) return;
    else await sleep(WRITE_GRACE_MS);
  }
  try {
    const current = await readFile(path, 'utf8').catch(() => null);
    if (current === staleContent) await unlink(path).catch(() => undefined);
  } finally {
    await unlink(breaker).catch(() => undefined);
  }
}

/** Create the breaker; its content is written when the disk has room, and it counts as taken either way. */
async function createBreaker(breaker: string, content: string): Promise<'created' | string | undefined> {
  let handle;
  try {
    handle = await open(breaker, 'wx', 0o600);
  } catch (error) {
    return errnoOf(error);
  }
  await handle.writeFile(content).catch(() => undefined);
  await handle.close().catch(() => undefined);
  return 'created';
}

async function isStaleBreaker(breaker: string, staleBreakerMs: number): Promise<boolean> {
  const raw = await readFile(breaker, 'utf8').catch(() => null);
  const holder = raw === null ? null : parseHolder(raw);
  if (holder !== null && !isHeld(holder)) return true;
  const info = await stat(breaker).catch(() => null);
  return info !== null && Date.now() - info.mtimeMs >= staleBreakerMs;
}
