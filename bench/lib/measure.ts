import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { onCleanup } from './cleanup';

const GNU_TIME = '/usr/bin/time';

/** A finished child process: wall time measured here, CPU and peak RSS from GNU time when present. */
export interface Measured {
  wallSeconds: number;
  /** User + system CPU of the process and the children it waited for; null without GNU time. */
  cpuSeconds: number | null;
  /** Largest resident set of the process or any one waited-for child, in bytes; null without GNU time. */
  maxRssBytes: number | null;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Options of one measured run. */
export interface MeasureOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** File fed to the child's stdin. */
  stdinFile?: string;
  /** The whole process group is killed after this long (default 10 min). */
  timeoutMs?: number;
}

/** Whether CPU and peak RSS of child processes can be measured (GNU time at /usr/bin/time). */
export function canMeasureResources(): boolean {
  return existsSync(GNU_TIME);
}

/**
 * Runs a command to completion under `/usr/bin/time -v` (when installed), in its own process group
 * so a timeout can stop it and everything it started.
 */
export async function runMeasured(command: string, args: readonly string[], options: MeasureOptions = {}): Promise<Measured> {
  const withTime = canMeasureResources();
  const scratch = await mkdtemp(join(tmpdir(), 'rd-bench-time-'));
  const report = join(scratch, 'time.txt');
  const stdin = options.stdinFile ? await open(options.stdinFile, 'r') : null;
  let child: ChildProcess | undefined;
  const release = onCleanup(async () => {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) killGroup(child.pid);
    await stdin?.close();
    await rm(scratch, { recursive: true, force: true });
  });
  try {
    const [file, argv] = withTime ? [GNU_TIME, ['-v', '-o', report, command, ...args]] : [command, [...args]];
    const started = performance.now();
    const { exitCode, stdout, stderr } = await new Promise<{ exitCode: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      child = spawn(file, argv, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: [stdin ? stdin.fd : 'ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const running = child;
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      running.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
      running.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
      const timer = setTimeout(() => {
        if (running.pid !== undefined) killGroup(running.pid);
      }, options.timeoutMs ?? 600_000);
      running.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      running.on('close', (code) => {
        clearTimeout(timer);
        resolve({ exitCode: code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
      });
    });
    const wallSeconds = (performance.now() - started) / 1000;
    let cpuSeconds: number | null = null;
    let maxRssBytes: number | null = null;
    if (withTime) {
      const text = await readFile(report, 'utf8').catch(() => '');
      const field = (label: string) => {
        const match = new RegExp(`${label}:\\s*([\\d.]+)`).exec(text);
        return match ? Number(match[1]) : null;
      };
      const user = field('User time \\(seconds\\)');
      const system = field('System time \\(seconds\\)');
      const rssKiB = field('Maximum resident set size \\(kbytes\\)');
      cpuSeconds = user !== null && system !== null ? user + system : null;
      maxRssBytes = rssKiB !== null ? rssKiB * 1024 : null;
    }
    return { wallSeconds, cpuSeconds, maxRssBytes, exitCode, stdout, stderr };
  } finally {
    await release();
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Throws with the child's output when it did not exit with 0. */
export function assertSucceeded(what: string, measured: Measured): void {
  if (measured.exitCode !== 0) {
    throw new Error(`${what} exited with ${measured.exitCode}:\n${measured.stdout.slice(-2000)}\n${measured.stderr.slice(-2000)}`);
  }
}
