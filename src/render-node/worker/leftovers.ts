import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { isBlenderProcessAlive, killProcessTree } from '../blender/process-tree';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Clean up after a worker that died mid-chunk (kill -9, power loss): stop the Blender it left running
 * (Blender leads its own process group, so it outlives its worker) and remove its scratch folder.
 * Folders of a worker that is still running (several may share one cache) are left alone; a Blender
 * counts only when its command line opens a scene of this cache.
 */
export async function stopLeftovers(workDir: string, scenesDir: string, log: Logger): Promise<void> {
  for (const name of await readdir(workDir).catch(() => [])) {
    const dir = join(workDir, name);
    let owner: { workerPid?: unknown; blenderPid?: unknown } = {};
    try {
      owner = JSON.parse(await readFile(join(dir, 'owner.json'), 'utf8')) as typeof owner;
    } catch {
      // no owner file: the worker died before Blender started
    }
    if (typeof owner.workerPid === 'number' && owner.workerPid !== process.pid && isAlive(owner.workerPid)) continue;
    if (typeof owner.blenderPid === 'number' && isBlenderProcessAlive(owner.blenderPid, { marker: scenesDir })) {
      log.warn({ pid: owner.blenderPid }, 'stopping a Blender left by a worker that stopped mid-chunk');
      await killProcessTree(owner.blenderPid);
    }
    await rm(dir, { recursive: true, force: true });
  }
}
