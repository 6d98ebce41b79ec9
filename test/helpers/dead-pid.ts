import { readFileSync } from 'node:fs';

/**
 * A process id that no process on this computer has: Linux hands out ids below `pid_max` only, and
 * other systems stay below 99999. Checked with `kill(pid, 0)` so a lock test never mistakes it for
 * a live holder.
 */
export function deadPid(): number {
  const pid = process.platform === 'linux' ? Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim()) : 99_999;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
  }
  throw new Error(`process ${pid} exists; cannot use it as the id of a process that died`);
}
