import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { readBlendFileHead, type BlendFileHead } from '../../blend/reader';
import { sceneAnalysisSchema, type AnalysisWarning, type SceneAnalysis } from '../../shared/api';
import { blenderErrorLines, runBlender, type BlenderRunResult } from './run-blender';
import { SceneAnalysisError } from './scene-analysis-error';
import { blenderScript } from './scripts-dir';

export { SceneAnalysisError } from './scene-analysis-error';

const versionTuple = z.array(z.number().int()).min(2);

/** What resources/blender/analyze.py writes: the analysis without what the node adds, plus versions. */
export const rawAnalysisSchema = sceneAnalysisSchema
  .omit({ savedWithBlender: true, nodeBlender: true, savedWithNewerBlender: true, totalFrames: true })
  .extend({ fileVersion: versionTuple, nodeFileVersion: versionTuple, nodeVersion: z.string() });
export type RawAnalysis = z.infer<typeof rawAnalysisSchema>;

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Frames in start..end by step, without listing them. */
export function countFrames(start: number, end: number, step: number): number {
  return end < start ? 0 : Math.floor((end - start) / Math.max(1, step)) + 1;
}

/**
 * Warnings about what a render needs chosen: a camera when none is active, a view layer when none
 * renders; none for a scene whose frames come from its video sequencer, which needs neither.
 */
export function sceneChoiceWarnings(raw: Pick<RawAnalysis, 'cameras' | 'activeCamera' | 'viewLayers' | 'rendersSequencer'>): AnalysisWarning[] {
  const warnings: AnalysisWarning[] = [];
  if (raw.rendersSequencer) return warnings;
  const names = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(', ');
  if (raw.activeCamera === null) {
    warnings.push({
      code: 'no-active-camera',
      message:
        raw.cameras.length === 0
          ? 'The scene has no camera, so nothing can be rendered. Add a camera in Blender, make it the active camera and save the scene.'
          : `The scene has no active camera. Choose the camera to render from: ${names(raw.cameras)}.`,
    });
  }
  if (raw.viewLayers.length > 0 && !raw.viewLayers.some((layer) => layer.useForRender)) {
    warnings.push({
      code: 'no-view-layer-for-render',
      message: `No view layer of the scene is enabled for rendering. Choose the view layer to render: ${names(raw.viewLayers.map((l) => l.name))}.`,
    });
  }
  return warnings;
}

/**
 * The {@link SceneAnalysis} of a raw analysis: the file's version as "major.minor" (a .blend does not
 * record the patch release), a `newer-blender` warning when the file format is newer than the node's,
 * and warnings when no camera is active or no view layer renders (unless the sequencer makes the frames).
 */
export function toSceneAnalysis(raw: RawAnalysis, nodeBlenderVersion: string): SceneAnalysis {
  const savedWithBlender = `${raw.fileVersion[0]}.${raw.fileVersion[1]}`;
  const savedWithNewerBlender = compareVersions(raw.fileVersion, raw.nodeFileVersion) > 0;
  const warnings: AnalysisWarning[] = [...raw.warnings, ...sceneChoiceWarnings(raw)];
  if (raw.simulations && raw.simulations.length > 0) {
    warnings.push({
      code: 'farm-delivery',
      message: `Frames render one after the other from the first, in one Blender run: the scene simulates ${listInWords(raw.simulations)} without a bake, so each frame follows from the one before, as in Blender.`,
    });
  }
  if (savedWithNewerBlender) {
    warnings.push({
      code: 'newer-blender',
      message: `The scene was saved with Blender ${savedWithBlender}, newer than this node's ${nodeBlenderVersion}: newer features may be missing or render differently.`,
    });
  }
  const { fileVersion: _f, nodeFileVersion: _n, nodeVersion: _v, warnings: _w, ...rest } = raw;
  return {
    ...rest,
    savedWithBlender,
    nodeBlender: nodeBlenderVersion,
    savedWithNewerBlender,
    warnings,
    totalFrames: countFrames(raw.frameStart, raw.frameEnd, raw.frameStep),
  };
}

/** `a`, `a and b`, `a, b and c`. */
function listInWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Input of {@link analyzeScene}. */
export interface AnalyzeSceneOptions {
  blenderPath: string;
  scenePath: string;
  /** The top of the uploaded files: paths leading outside it count as missing and are never read. Default: the scene's folder. */
  sceneRoot?: string;
  /** Version of the node's Blender, e.g. "3.4.1". */
  nodeBlenderVersion: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Folder for the analysis' scratch folder; default: the system's temp folder. */
  tempDir?: string;
  /** Told Blender's process id once it has started. */
  onSpawn?: (pid: number) => void;
  /** Told every line Blender prints (for the job's log). */
  onLine?: (line: string) => void;
}

function parseVersion(version: string): number[] {
  return version.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

/** Whether the node's Blender cannot read the header at all (the large header came with 5.0; 4.5 reads it). */
function headerTooNew(header: BlendFileHead, nodeVersion: number[]): boolean {
  return header.format === 'large' && compareVersions(nodeVersion, [4, 5]) < 0;
}

function newerThanNode(header: BlendFileHead, nodeVersion: number[]): boolean {
  if (header.versionNumber === null) return false;
  return compareVersions([Math.floor(header.versionNumber / 100), header.versionNumber % 100], nodeVersion.slice(0, 2)) > 0;
}

/** A line of Blender's output with every absolute path, quoted or not, cut down to its file name. */
export function withoutDirectories(line: string): string {
  const name = (path: string) => basename(path.replace(/\\/g, '/'));
  return line
    .replace(/(['"])((?:\/|[A-Za-z]:[\\/]|\\\\)[^'"]*)\1/g, (_match, quote: string, path: string) => `${quote}${name(path)}${quote}`)
    .replace(/(^|[\s(=,])((?:\/|[A-Za-z]:[\\/]|\\\\)[^\s'"(),]+)/g, (_match, before: string, path: string) => `${before}${name(path)}`);
}

/** What Blender said of a file it could not read, without its own "Error: Failed to read … 'name':" lead-in. */
function readErrorDetail(line: string): string {
  return line.replace(/^Error:\s*/, '').replace(/^(Cannot read file|Failed to read blend file|File format is not supported)\s*'[^']*'\s*[:,]?\s*/i, '').trim();
}

/** Turn a failed Blender run into the reason a person can act on (never naming the node's folders). */
export function analysisFailure(
  result: Pick<BlenderRunResult, 'exitCode' | 'signal' | 'timedOut' | 'stdout' | 'stderr'>,
  context: { fileName: string; header: BlendFileHead; nodeBlenderVersion: string; timeoutMs: number },
): SceneAnalysisError {
  const { fileName, header, nodeBlenderVersion } = context;
  if (result.timedOut) {
    return new SceneAnalysisError(
      'AnalysisTimedOut',
      'blender',
      `Blender did not finish reading ${fileName} within ${Math.round(context.timeoutMs / 1000)} s. The scene may be very large; try again, or simplify it.`,
    );
  }
  const lines = blenderErrorLines(result).map(withoutDirectories);
  const loadError = lines.find((l) => /^Error: (Cannot read file|Failed to read blend file|File format is not supported)/.test(l));
  const newer = newerThanNode(header, parseVersion(nodeBlenderVersion));
  if (newer && (loadError || result.signal)) {
    return new SceneAnalysisError(
      'SceneTooNew',
      'blender',
      `${fileName} was saved with Blender ${header.version}, which this node's Blender ${nodeBlenderVersion} cannot read${loadError ? ` (${loadError})` : ''}. Send it to a farm that has Blender ${header.version} or newer.`,
    );
  }
  if (loadError) {
    const detail = readErrorDetail(loadError);
    return new SceneAnalysisError(
      'SceneUnreadable',
      'scene',
      `Blender could not read ${fileName}${detail ? ` (${detail})` : ''}: it may be damaged or incomplete. Open it in Blender, save it again and submit it again.`,
    );
  }
  if (result.signal) {
    return new SceneAnalysisError(
      'SceneUnreadable',
      'scene',
      `Blender crashed (${result.signal}) while reading ${fileName}; the file may be damaged. Open and re-save it in Blender, then upload it again.`,
    );
  }
  const last = lines.at(-1) ?? withoutDirectories(result.stderr.trim().split('\n').at(-1) ?? '');
  return new SceneAnalysisError(
    'AnalysisFailed',
    'blender',
    `The scene analysis of ${fileName} failed (exit code ${result.exitCode})${last ? `: ${last}` : '.'}`,
  );
}

/**
 * Analyse a .blend with the node's Blender (resources/blender/analyze.py; scripts in the file never
 * run). The head of the file is checked first, so a file that is not a .blend never reaches Blender.
 * Throws {@link SceneAnalysisError} for a file that is not a scene, unreadable, too new, or a time-out.
 */
export async function analyzeScene(options: AnalyzeSceneOptions): Promise<SceneAnalysis> {
  const fileName = basename(options.scenePath);
  const timeoutMs = options.timeoutMs ?? 120_000;
  let header: BlendFileHead | null;
  try {
    header = await readBlendFileHead(options.scenePath);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    throw new SceneAnalysisError('SceneUnreadable', 'scene', `${fileName} could not be opened on the node (${code}).`);
  }
  if (!header) {
    throw new SceneAnalysisError(
      'NotABlendFile',
      'scene',
      `${fileName} is not a Blender file (it does not start with a .blend header). Upload a scene saved by Blender, or a .zip holding one.`,
    );
  }
  if (headerTooNew(header, parseVersion(options.nodeBlenderVersion))) {
    throw new SceneAnalysisError(
      'SceneTooNew',
      'blender',
      `${fileName} was saved with Blender ${header.version} in a file format this node's Blender ${options.nodeBlenderVersion} cannot read. Send it to a farm that has Blender ${header.version} or newer.`,
    );
  }

  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'renderdrop-analysis-'));
  try {
    const out = join(dir, 'analysis.json');
    const result = await runBlender({
      blenderPath: options.blenderPath,
      args: ['-b', '-Y', '--factory-startup', options.scenePath, '--python-exit-code', '1', '--python', blenderScript('analyze.py'), '--', out, options.sceneRoot ?? dirname(options.scenePath)],
      timeoutMs,
      signal: options.signal,
      env: options.env,
      onSpawn: options.onSpawn,
      onOutputLine: options.onLine,
    });
    if (result.aborted) throw Object.assign(new Error('The analysis was cancelled.'), { name: 'AbortError' });
    if (result.exitCode !== 0) throw analysisFailure(result, { fileName, header, nodeBlenderVersion: options.nodeBlenderVersion, timeoutMs });
    let json: unknown;
    try {
      json = JSON.parse(await readFile(out, 'utf8'));
    } catch {
      throw new SceneAnalysisError('AnalysisFailed', 'blender', `Blender read ${fileName} but wrote no analysis.`);
    }
    const parsed = rawAnalysisSchema.safeParse(json);
    if (!parsed.success) {
      throw new SceneAnalysisError('AnalysisFailed', 'blender', `The analysis of ${fileName} was malformed: ${parsed.error.message}`);
    }
    return toSceneAnalysis(parsed.data, options.nodeBlenderVersion);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
