import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { acquireFileLock, LockBusyError, type FileLock } from '../../node-common/file-lock';
import { isBlenderProcessAlive, killProcessTree } from '../blender';
import { isDiskFullError } from '../disk';

/** The lock a worker holds on a chunk's scratch folder while it renders there. */
export const SCRATCH_LOCK = 'worker.lock';
/** Where a worker notes the Blender it started for a chunk. */
export const BLENDER_PID_FILE = 'blender.pid';

/**
 * Clean up after a worker that died mid-chunk (kill -9, power loss): stop the Blender it left running
 * (Blender leads its own process group, so it outlives its worker) and remove its scratch folder.
 * Folders whose worker still runs (several may share one cache) keep their lock and are left alone; a
 * Blender counts only when its command line opens a scene of this cache. On a full disk, where not
 * even a lock file fits, a folder is held by no live worker (one that is alive refuses the lock before
 * anything is written), so it is cleaned up without the lock: that is what gives the room back.
 */
export async function stopLeftovers(workDir: string, scenesDir: string, log: Logger): Promise<void> {
  for (const name of await readdir(workDir).catch(() => [])) {
    const dir = join(workDir, name);
    let lock: FileLock | null = null;
    try {
      lock = await acquireFileLock(join(dir, SCRATCH_LOCK));
    } catch (err) {
      if (err instanceof LockBusyError) continue;
      if (!isDiskFullError(err)) throw err;
      log.warn({ dir: name }, 'the disk is full: removing a scratch folder left by a stopped worker without its lock');
    }
    try {
      const pid = Number(await readFile(join(dir, BLENDER_PID_FILE), 'utf8').catch(() => ''));
      if (pid > 0 && isBlenderProcessAlive(pid, { marker: scenesDir })) {
        log.warn({ pid }, 'stopping a Blender left by a worker that stopped mid-chunk');
        await killProcessTree(pid);
      }
    } finally {
      lock?.release();
    }
    await rm(dir, { recursive: true, force: true });
  }
}
