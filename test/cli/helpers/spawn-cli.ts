import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../helpers/cli';

/** A running `renderdrop` child process whose output is collected as it comes. */
export interface CliProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Start the CLI from source with extra environment; stdin is empty (not a terminal). */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv, options: { input?: string } = {}): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/run.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdin!.end(options.input ?? '');
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Polls `check` until it returns a value other than null/false, or fails after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | null | false> | T | null | false, timeoutMs = 60_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
