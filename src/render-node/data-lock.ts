import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** A held lock on a node data folder; `release` gives it up. */
export interface DataLock {
  path: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Make sure only one render node serves a data folder at a time: two would each treat the other's
 * Blender processes as leftovers of a crash and kill them, and run the same queued jobs. A lock left by
 * a node that died is taken over.
 */
export function acquireDataLock(dataDir: string): DataLock {
  const path = join(dataDir, 'node.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          rmSync(path, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: { pid?: unknown; host?: unknown } = {};
    try {
      holder = JSON.parse(readFileSync(path, 'utf8')) as typeof holder;
    } catch {
      // unreadable: written by a node that died while writing it
    }
    const sameMachine = holder.host === undefined || holder.host === hostname();
    if (typeof holder.pid === 'number' && (!sameMachine || isAlive(holder.pid))) {
      throw new Error(
        `The data folder ${dataDir} is in use by another render node (process ${holder.pid}${sameMachine ? '' : ` on ${String(holder.host)}`}). ` +
          `Stop it or use another --data folder; if no node runs, delete ${path}.`,
      );
    }
    rmSync(path, { force: true });
  }
  throw new Error(`Could not lock the data folder ${dataDir}; delete ${path} if no render node runs.`);
}
