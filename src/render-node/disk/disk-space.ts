import { statfs } from 'node:fs/promises';
import { statfsSync } from 'node:fs';
import type { FailedReason } from '../../shared/api';
import { formatBytes } from '../../shared/text';

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const DISK_FULL_TEXT = /no space left on device|database or disk is full|disk quota exceeded/i;

/**
 * Whether an error (or any error in its `cause` chain) means the disk is full: ENOSPC or EDQUOT from
 * the file system, SQLITE_FULL from the database, or a tool's message saying so (Blender reports
 * "No space left on device" in its text).
 */
export function isDiskFullError(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return typeof e === 'string' && DISK_FULL_TEXT.test(e);
    if ('code' in e && typeof e.code === 'string' && DISK_FULL_CODES.has(e.code)) return true;
    if ('message' in e && typeof e.message === 'string' && DISK_FULL_TEXT.test(e.message)) return true;
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}

/** Bytes an unprivileged writer may still use on the file system holding `dir`. */
export async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

/** {@link freeBytes}, synchronously (start-up checks). */
export function freeBytesSync(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/** The failure of a job stopped by a full disk; `what` says what could not be written. */
export function diskFullReason(what: string): FailedReason {
  return {
    name: 'DiskFull',
    type: 'disk',
    message: `The render node ran out of disk space: ${what}. Free space on the node's disk, then submit the job again.`,
  };
}

/** The failure of a job refused before it starts because its output would not fit. */
export function notEnoughSpaceReason(what: string, needed: number, free: number): FailedReason {
  return {
    name: 'DiskFull',
    type: 'disk',
    message: `Not enough disk space on the render node: ${what} needs about ${formatBytes(needed)}, and ${formatBytes(free)} is free. Free space on the node's disk (or render fewer frames or a smaller size), then submit the job again.`,
  };
}
