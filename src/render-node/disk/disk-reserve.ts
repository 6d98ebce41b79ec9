import { closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { freeBytesSync, isDiskFullError } from './disk-space';

/** Default size of the reserve: room for a few hundred database writes. */
export const DEFAULT_RESERVE_BYTES = 4 * 1024 * 1024;

/**
 * A file of zeros kept in the node's data folder so that, when the disk fills up, the node can still
 * record why jobs failed: a write that fails for lack of space gives the reserve up and is tried once
 * more. The reserve is made again once there is room for it.
 */
export class DiskReserve {
  constructor(
    readonly path: string,
    readonly bytes: number = DEFAULT_RESERVE_BYTES,
  ) {}

  /** Whether the reserve is in place. */
  get held(): boolean {
    try {
      return statSync(this.path).size >= this.bytes;
    } catch {
      return false;
    }
  }

  /** Make the reserve if it is missing and twice its size is free; true when it is in place. */
  ensure(): boolean {
    if (this.held) return true;
    try {
      if (freeBytesSync(dirname(this.path)) < this.bytes * 2) return false;
      const fd = openSync(this.path, 'w', 0o600);
      try {
        const zeros = Buffer.alloc(Math.min(this.bytes, 1024 * 1024));
        for (let written = 0; written < this.bytes; ) written += writeSync(fd, zeros, 0, Math.min(zeros.length, this.bytes - written));
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (err) {
      rmSync(this.path, { force: true });
      if (isDiskFullError(err)) return false;
      throw err;
    }
  }

  /** Give the reserve up; true when there was one. */
  release(): boolean {
    const had = this.held;
    rmSync(this.path, { force: true });
    return had;
  }

  /** Run a write; when it fails for lack of space and the reserve is held, give it up and run it again. */
  write<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (!isDiskFullError(err) || !this.release()) throw err;
      return fn();
    }
  }
}
