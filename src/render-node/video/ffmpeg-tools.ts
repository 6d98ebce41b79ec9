import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { blenderEnvironment } from '../../shared/security';

/** The node's FFmpeg: the programs, its version and the video encoders it has. */
export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string;
  /** The first line of `ffmpeg -version`. */
  version: string;
  /** Names of its video encoders (libx264, libvpx-vp9, png, ...). */
  encoders: string[];
}

/** How one run of an FFmpeg program ended. */
export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an FFmpeg program to its end (killed after `timeoutMs` or on `signal`); never rejects. */
export function runTool(program: string, args: readonly string[], options: { timeoutMs: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv }): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(
      program,
      args,
      { timeout: options.timeoutMs, signal: options.signal, env: blenderEnvironment(options.env ?? process.env), maxBuffer: 16 << 20, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) || (error && code === null ? error.message : '') });
      },
    );
  });
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `name` on PATH (with `.exe` on Windows), or null. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  const suffix = process.platform === 'win32' ? '.exe' : '';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, name + suffix))) return join(dir, name + suffix);
  }
  return null;
}

/** The encoder names of `ffmpeg -encoders` output: its video lines (`V.....`). */
export function videoEncodersOf(listing: string): string[] {
  const names: string[] = [];
  for (const line of listing.split(/\r?\n/)) {
    const match = /^\s*V[.A-Z]{5}\s+(\S+)/.exec(line);
    if (match && match[1] !== '=') names.push(match[1]!);
  }
  return names;
}

/**
 * Finds the node's FFmpeg: `path` when given (ffprobe beside it), else `ffmpeg` and `ffprobe` on PATH;
 * null when there is none or it does not answer. `path: null` turns video making off.
 */
export async function findFfmpeg(options: { path?: string | null; env?: NodeJS.ProcessEnv } = {}): Promise<FfmpegTools | null> {
  if (options.path === null) return null;
  const env = options.env ?? process.env;
  const ffmpeg = options.path ?? onPath('ffmpeg', env);
  if (!ffmpeg) return null;
  const beside = join(dirname(ffmpeg), `ffprobe${process.platform === 'win32' ? '.exe' : ''}`);
  const ffprobe = executable(beside) ? beside : onPath('ffprobe', env);
  if (!ffprobe) return null;
  const [version, encoders] = await Promise.all([runTool(ffmpeg, ['-hide_banner', '-version'], { timeoutMs: 15_000, env }), runTool(ffmpeg, ['-hide_banner', '-encoders'], { timeoutMs: 15_000, env })]);
  if (version.code !== 0 || encoders.code !== 0) return null;
  return { ffmpeg, ffprobe, version: version.stdout.split('\n')[0]!.trim(), encoders: videoEncodersOf(encoders.stdout) };
}

/** The node's FFmpeg, looked for once, when first needed (a node that never makes a video never starts it). */
export type FfmpegLookup = () => Promise<FfmpegTools | null>;

/** A {@link FfmpegLookup} for {@link findFfmpeg}'s options. */
export function lazyFfmpeg(options: { path?: string | null; env?: NodeJS.ProcessEnv } = {}): FfmpegLookup {
  let found: Promise<FfmpegTools | null> | null = null;
  return () => (found ??= findFfmpeg(options).catch(() => null));
}
