import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** How {@link killProcessTree} stops a process and everything it started. */
export interface KillProcessTreeOptions {
  /** Time between the polite SIGTERM and the SIGKILL, in ms (POSIX). */
  graceMs?: number;
  platform?: NodeJS.Platform;
}

const POLL_MS = 50;

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
      return true;
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'EPERM') return true;
    }
  }
  return false;
}

/**
 * Whether any member of process group `pgid` is still running. On Linux zombies do not count: an
 * orphaned child stays a zombie until init reaps it, which in containers can take a while.
 */
function groupAlive(pgid: number, platform: NodeJS.Platform): boolean {
  if (platform !== 'linux') return signalGroup(pgid, 0);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return signalGroup(pgid, 0);
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/**
 * Stop a process and its children. On POSIX the process is expected to lead its own process group
 * (spawned `detached`): the group gets SIGTERM, then SIGKILL if anything is left after `graceMs`
 * (3 s). On Windows `taskkill /T /F` ends the tree. Resolves once nothing is left (or after SIGKILL).
 */
export async function killProcessTree(pid: number, options: KillProcessTreeOptions = {}): Promise<void> {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') {
    await new Promise<void>((resolve) => {
      const child = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      child.on('error', () => resolve());
      child.on('exit', () => resolve());
    });
    return;
  }
  if (!signalGroup(pid, 'SIGTERM')) return;
  const deadline = Date.now() + (options.graceMs ?? 3000);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    if (!groupAlive(pid, platform)) return;
  }
  signalGroup(pid, 'SIGKILL');
}

/** Where {@link isBlenderProcessAlive} looks; injectable for tests. */
export interface ProcessCheckOptions {
  platform?: NodeJS.Platform;
  procRoot?: string;
  /** Text the process's command line must contain (for example the job's scene folder). */
  marker?: string;
  /** Reads a process's command line off Linux; default `ps` on macOS/BSD, PowerShell on Windows. */
  commandLineOf?: (pid: number) => string | null;
}

function systemCommandLine(pid: number, platform: NodeJS.Platform): string | null {
  try {
    if (platform === 'win32') {
      const script = `(Get-CimInstance Win32_Process -Filter "ProcessId=${pid}").CommandLine`;
      return execFileSync('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', script], { encoding: 'utf8', windowsHide: true, timeout: 10_000 }).trim() || null;
    }
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', timeout: 10_000 }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * Whether `pid` is a running Blender of this node, for cleaning up after a node that crashed
 * mid-render: its command line must mention blender and, when given, `marker` (the job's own folder),
 * so a recycled pid or the artist's own Blender is never taken for it. A zombie counts as gone.
 */
export function isBlenderProcessAlive(pid: number, options: ProcessCheckOptions = {}): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const platform = options.platform ?? process.platform;
  let cmdline: string | null;
  if (platform === 'linux') {
    try {
      cmdline = readFileSync(`${options.procRoot ?? '/proc'}/${pid}/cmdline`, 'utf8');
    } catch {
      return false;
    }
  } else {
    cmdline = (options.commandLineOf ?? ((p) => systemCommandLine(p, platform)))(pid);
  }
  if (!cmdline || !/blender/i.test(cmdline)) return false;
  return options.marker === undefined || cmdline.includes(options.marker);
}
