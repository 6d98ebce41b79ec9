import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { option } from './options';

/**
 * A folder for the benchmark's large scratch data (the node's data folder, download targets):
 * `--<name>=<dir>` when given, else tmpfs (/dev/shm) when it has `bytesNeeded` free plus 1 GiB, so
 * the virtual disk's write speed does not cap the server and hide the clients' differences, else
 * the system temp folder.
 */
export async function scratchParent(name: string, bytesNeeded: number): Promise<string> {
  const chosen = option(name, '');
  if (chosen !== '') return chosen;
  const free = await statfs('/dev/shm').then((s) => s.bavail * s.bsize).catch(() => 0);
  return free > bytesNeeded + 1024 ** 3 ? '/dev/shm' : tmpdir();
}
