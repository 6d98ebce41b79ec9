import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventLineParser, tokenPrefix, type BlenderEvent, type RenderEvent } from './event-lines';
import { killProcessTree } from './process-tree';
import { createLineSplitter, type LineSplitter } from './line-splitter';
import { blenderErrorLines, TailBuffer } from './run-blender';
import { blenderScript } from './scripts-dir';
import { blenderEnvironment } from '../../shared/security';

export { isBlenderProcessAlive, killProcessTree } from './process-tree';

/** Output settings a plan may override; null or absent keeps the scene's own. */
export interface PlanOutputSettings {
  colorMode?: string | null;
  colorDepth?: string | null;
  exrCodec?: string | null;
  tiffCodec?: string | null;
  compression?: number | null;
  quality?: number | null;
}

/**
 * What Blender is handed: the plan resources/blender/render.py applies to the scene before it renders.
 * Only `frames` and `outputDir` are required; anything null or absent keeps the scene's own setting.
 * The node's plan of a job (`RenderPlan` in render-node/plan) is a complete one.
 */
export interface BlenderRenderPlan {
  /** The frames to render, in the order Blender renders them. */
  frames: number[];
  outputDir: string;
  /**
   * File name of each frame without extension, `#`s standing for the zero-padded frame (e.g.
   * "shot_####"). Default: the base name of the scene's output path, else "frame_####".
   */
  fileNamePattern?: string | null;
  outputFormat?: string | null;
  outputSettings?: PlanOutputSettings | null;
  engine?: string | null;
  samples?: number | null;
  resolution?: [number, number] | null;
  resolutionPercentage?: number | null;
  fps?: number | null;
  camera?: string | null;
  /** Render only this view layer. */
  viewLayer?: string | null;
  denoise?: { enabled: boolean; denoiser?: string | null } | null;
  /** "CPU", or a Cycles GPU type such as "CUDA" or "OPTIX". */
  device?: string | null;
  useTiling?: boolean | null;
  tileSize?: number | null;
  colorManagement?: { viewTransform?: string | null; look?: string | null } | null;
  /** Every compositor File Output node writes to `<compositeOutputDir>/<node name>/` instead. */
  compositeOutputDir?: string | null;
  threads?: number | null;
  /** Where a PNG preview of the shot's last frame (the highest-numbered) is written once all frames are done. */
  previewPath?: string | null;
  /** Run the scene's own Python (`-y`: drivers' expressions, registered text blocks); otherwise Blender runs with `-Y`. */
  scenePython?: boolean | null;
  /** Folder where a PNG preview of each frame rendered is saved (see resources/blender/render.py). */
  previewDir?: string | null;
  /** Previews fit in previewMaxSize x previewMaxSize (default 512). */
  previewMaxSize?: number | null;
  /** The frames are in order and simulate: frames already there are still stepped through (not rendered). */
  oneRun?: boolean | null;
  /** The scene simulates: every frame from this one up to the first to render is stepped through first (not rendered). */
  stepFrom?: number | null;
  /**
   * A sample render's steps: each step's frame rendered at its resolution percentage and samples, in
   * this order (a frame may come several times; `frames` lists them too); each file is removed once
   * reported.
   */
  steps?: RenderStep[] | null;
}

/** One step of a sample render: a frame at a size. */
export interface RenderStep {
  frame: number;
  resolutionPercentage: number;
  /** Null: the scene's own (an engine without samples). */
  samples: number | null;
}

/** A frame file in place: written by this run, or found already there (`skipped`). */
export interface FrameWritten {
  frame: number;
  path: string;
  seconds: number;
  skipped: boolean;
}

/** How a Blender render run ended: its exit, the frames it wrote and what it reported. */
export interface BlenderRenderResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  aborted: boolean;
  framesWritten: FrameWritten[];
  /** Warnings render.py reported (settings it could not apply as asked). */
  warnings: string[];
  /** The error render.py reported, if it stopped on one. */
  error: string | null;
  /**
   * The end of Blender's error output: stderr plus the `Error:` lines and script errors it printed on
   * stdout, in arrival order.
   */
  stderrTail: string;
  /** The end of Blender's ordinary stdout (event lines left out). */
  stdoutTail: string;
}

/** Input of {@link startRender}. */
export interface StartRenderOptions {
  blenderPath: string;
  scenePath: string;
  /** The top of the uploaded files: every path of the scene leading outside it is cut off before the render. */
  sceneRoot: string;
  plan: BlenderRenderPlan;
  signal?: AbortSignal;
  onEvent?: (event: RenderEvent) => void;
  /** Told every line Blender prints on stdout and stderr, event lines left out (for the job's log). */
  onLine?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Folder for the run's own scratch folder (its plan file); default: the system's temp folder. */
  tempDir?: string;
  platform?: NodeJS.Platform;
  /** Time between SIGTERM and SIGKILL on abort, in ms (default 3000). */
  graceMs?: number;
}

/** A running render. */
export interface RenderHandle {
  pid: number;
  done: Promise<BlenderRenderResult>;
}

const TAIL_CHARS = 8 * 1024;

function checkPattern(pattern: string | null | undefined): void {
  if (pattern == null) return;
  if (pattern === '' || /[\\/]/.test(pattern) || pattern === '.' || pattern === '..') {
    throw new Error(`fileNamePattern must be a plain file name, got "${pattern}".`);
  }
}

/** What a running render has reported so far. */
interface RunOutput {
  framesWritten: FrameWritten[];
  warnings: string[];
  error: string | null;
  errTail: TailBuffer;
  outTail: TailBuffer;
}

type BlenderChild = ChildProcessByStdio<null, Readable, Readable>;

/**
 * Start Blender rendering `plan.frames` of the scene. Returns at once with the process id; `done`
 * resolves when Blender has exited (it rejects only if Blender could not be started). On POSIX Blender
 * leads its own process group, so aborting `signal` ends it and everything it started: SIGTERM, then
 * SIGKILL after `graceMs`. Frame files already in `outputDir` are skipped (reported with `skipped: true`):
 * remove incomplete ones first (`removeIncompleteFrames`), and check every reported frame before it
 * counts (`acceptFrame`), since Blender reports a frame saved even when the disk filled up under it.
 */
export function startRender(options: StartRenderOptions): RenderHandle {
  checkPattern(options.plan.fileNamePattern);
  const platform = options.platform ?? process.platform;
  const eventToken = randomBytes(16).toString('hex');
  const workDir = mkdtempSync(join(options.tempDir ?? tmpdir(), 'renderdrop-render-'));
  const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });
  const planPath = join(workDir, 'plan.json');
  writeFileSync(planPath, JSON.stringify({ ...options.plan, sceneRoot: options.sceneRoot, eventToken }));

  const child = spawnBlender(options, planPath, platform);
  const pid = child.pid;
  if (pid === undefined) {
    child.on('error', () => {});
    removeWorkDir();
    throw new Error(`Could not start Blender at ${options.blenderPath}.`);
  }
  const { output, lines } = readRunOutput(child, eventToken, options.onEvent, options.onLine);

  let aborted = false;
  const onAbort = () => {
    aborted = true;
    if (child.exitCode === null && child.signalCode === null) void killProcessTree(pid, { platform, graceMs: options.graceMs });
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const done = new Promise<BlenderRenderResult>((resolve, reject) => {
    child.on('error', (err) => {
      options.signal?.removeEventListener('abort', onAbort);
      removeWorkDir();
      reject(new Error(`Blender at ${options.blenderPath} failed: ${err.message}`, { cause: err }));
    });
    child.on('close', (exitCode, signal) => {
      options.signal?.removeEventListener('abort', onAbort);
      lines.end();
      removeWorkDir();
      resolve(resultOf(output, { exitCode, signal, aborted }));
    });
  });
  return { pid, done };
}

/** Blender in the background on the scene, running render.py with the plan file (and the scene's Python only when the plan says). */
function spawnBlender(options: StartRenderOptions, planPath: string, platform: NodeJS.Platform): BlenderChild {
  return spawn(
    options.blenderPath,
    ['-b', options.plan.scenePython === true ? '-y' : '-Y', '--factory-startup', options.scenePath, '--python-exit-code', '1', '--python', blenderScript('render.py'), '--', planPath],
    { detached: platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'], env: blenderEnvironment(options.env ?? process.env), windowsHide: true },
  );
}

/** Follow Blender's output: record the events render.py reports and keep the ends of stdout and stderr. */
function readRunOutput(
  child: BlenderChild,
  eventToken: string,
  onEvent: ((event: RenderEvent) => void) | undefined,
  onLine: ((line: string) => void) | undefined,
): { output: RunOutput; lines: LineSplitter } {
  const output: RunOutput = { framesWritten: [], warnings: [], error: null, errTail: new TailBuffer(TAIL_CHARS), outTail: new TailBuffer(TAIL_CHARS) };
  const lines = createEventLineParser(
    (event) => {
      const reported = recordEvent(output, event);
      if (reported) onEvent?.(reported);
    },
    (line) => {
      onLine?.(line);
      output.outTail.push(`${line}\n`);
      if (blenderErrorLines({ stdout: line, stderr: '' }).length > 0) output.errTail.push(`${line}\n`);
    },
    tokenPrefix(eventToken),
  );
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => lines.push(chunk));
  const errorLines = createLineSplitter((line) => onLine?.(line));
  child.stderr.on('data', (chunk: string) => {
    output.errTail.push(chunk);
    errorLines.push(chunk);
  });
  child.stderr.on('end', () => errorLines.end());
  return { output, lines };
}

/** Record one event in the run's output; the event when it is one render.py reports, else null. */
function recordEvent(output: RunOutput, event: BlenderEvent): RenderEvent | null {
  switch (event.event) {
    case 'frame':
      output.framesWritten.push({ frame: event.frame, path: event.path, seconds: event.seconds, skipped: event.skipped ?? false });
      return event;
    case 'warning':
      output.warnings.push(event.message);
      return event;
    case 'error':
      output.error = event.message;
      output.errTail.push(`${event.message}\n`);
      return event;
    case 'ready':
    case 'done':
      return event;
    default:
      return null;
  }
}

function resultOf(output: RunOutput, exit: { exitCode: number | null; signal: NodeJS.Signals | null; aborted: boolean }): BlenderRenderResult {
  return {
    ...exit,
    framesWritten: output.framesWritten,
    warnings: output.warnings,
    error: output.error,
    stderrTail: output.errTail.toString(),
    stdoutTail: output.outTail.toString(),
  };
}
