import { spawn } from 'node:child_process';
import { createLineSplitter } from './line-splitter';
import { killProcessTree } from './process-tree';
import { blenderEnvironment } from '../../shared/security';

/** One Blender run to completion (probe, analysis, preview, helper scripts). */
export interface BlenderRunOptions {
  blenderPath: string;
  args: readonly string[];
  /** Kill Blender (and its children) after this many ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Called for every stdout line as it arrives. */
  onStdoutLine?: (line: string) => void;
  /** Called for every line of stdout and of stderr as it arrives (for a job's log). */
  onOutputLine?: (line: string) => void;
  /** How many characters of each stream to keep, from the end (default 1 Mi). */
  maxCaptureChars?: number;
  platform?: NodeJS.Platform;
  /** Told the process id once Blender has started (so a crashed caller can find it later). */
  onSpawn?: (pid: number) => void;
}

/** How a Blender run ended. `stdout`/`stderr` hold the last `maxCaptureChars` of each stream. */
export interface BlenderRunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/** Text capture that keeps only the end of a long stream. */
export class TailBuffer {
  private text = '';
  constructor(private readonly maxChars: number) {}
  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.maxChars * 2) this.text = this.text.slice(-this.maxChars);
  }
  toString(): string {
    return this.text.length > this.maxChars ? this.text.slice(-this.maxChars) : this.text;
  }
}

/**
 * Run Blender and collect its output. On POSIX it runs in its own process group so a time-out or an
 * abort ends Blender and anything it started. Rejects only when Blender cannot be started at all.
 */
export function runBlender(options: BlenderRunOptions): Promise<BlenderRunResult> {
  const platform = options.platform ?? process.platform;
  const started = Date.now();
  const max = options.maxCaptureChars ?? 1024 * 1024;
  const stdout = new TailBuffer(max);
  const stderr = new TailBuffer(max);
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      resolve({ exitCode: null, signal: null, timedOut: false, aborted: true, stdout: '', stderr: '', durationMs: 0 });
      return;
    }
    const child = spawn(options.blenderPath, options.args, {
      cwd: options.cwd,
      env: blenderEnvironment(options.env ?? process.env),
      detached: platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    let timedOut = false;
    let aborted = false;
    const stop = () => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        void killProcessTree(child.pid, { platform });
      }
    };
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            stop();
          }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const lines = createLineSplitter((line) => {
      options.onStdoutLine?.(line);
      options.onOutputLine?.(line);
    });
    const errorLines = createLineSplitter((line) => options.onOutputLine?.(line));
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout.push(chunk);
      lines.push(chunk);
    });
    child.stderr.on('data', (chunk: string) => {
      stderr.push(chunk);
      errorLines.push(chunk);
    });

    const cleanup = () => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      cleanup();
      reject(new Error(`Could not start Blender at ${options.blenderPath}: ${error.message}`, { cause: error }));
    });
    child.on('close', (exitCode, signal) => {
      cleanup();
      lines.end();
      errorLines.end();
      resolve({
        exitCode,
        signal,
        timedOut,
        aborted,
        stdout: stdout.toString(),
        stderr: stderr.toString(),
        durationMs: Date.now() - started,
      });
    });
  });
}

/** The `Error: ...` lines Blender printed (it reports load failures on stdout), most telling first. */
export function blenderErrorLines(result: Pick<BlenderRunResult, 'stdout' | 'stderr'>): string[] {
  return `${result.stdout}\n${result.stderr}`
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /^(Error|ERROR|Traceback|[A-Za-z]+Error)\b/.test(line));
}
