import { missingChoices, type MissingChoices } from '../../core/lifecycle';
import { isNote, type RenderConfig } from '../../shared/api';
import { formatFrames, parseFrameRanges } from '../../shared/render';
import { isPlainRecord } from '../../shared/plain-record';
import { settingValue } from '../../shared/contract';
import { countOf } from '../../shared/text';
import { safeText } from '../terminal';
import { formatPairs, shellWord } from '../output';

/** What the analysis summary is about. */
export interface AnalysisSummaryInput {
  fileName: string;
  jobId: string;
  /** `job.analysis` as the server sent it; read defensively (other servers may use another shape). */
  analysis: unknown;
  renderConfig: RenderConfig;
  /** Said after each missing file, or worked out from its path (default: pack it into the .blend or send a .zip with it). */
  missingAdvice?: MissingAdvice;
}

/** The summary's parts: label/value rows and warnings, each a line a person can act on. */
export interface AnalysisSummary {
  rows: [string, string][];
  warnings: string[];
  /** What needs nothing done, said so the artist knows (the farm runs the scene's Python). */
  notes: string[];
  /** Frames the render will produce, when known. */
  frameCount: number | null;
}

/** What to say after a missing file: one sentence for all, or one worked out from the path the analysis names. */
export type MissingAdvice = string | ((path: string) => string);

/** Server warnings the summary words itself (see choiceWarnings). */
const CHOICE_WARNING_CODES: ReadonlySet<string> = new Set(['no-active-camera', 'no-view-layer-for-render']);
const DEFAULT_ADVICE = 'Pack it into the .blend or send a .zip with it.';

/**
 * What the server detected in a scene, with the overrides the render will apply: engine, frames,
 * resolution and percentage, samples, camera (and view layer when one is chosen or needed), output
 * format, colour preset and Blender version, then every warning (a missing texture shows the path
 * stored in the scene; a missing camera or view layer names those there are and the option that
 * chooses one).
 */
export function summarizeAnalysis(analysis: unknown, config: RenderConfig, missingAdvice: MissingAdvice = DEFAULT_ADVICE): AnalysisSummary {
  const a = record(analysis);
  const rows: [string, string][] = [];
  const engineCode = text(a.engine);
  const requestedEngine = config.renderEngine;
  if (engineCode || requestedEngine) rows.push(['Engine', overridden(engineName(requestedEngine ?? engineCode!), requestedEngine && engineCode ? engineName(engineCode) : null)]);

  const frames = describeFrames(a, config);
  if (frames) rows.push(['Frames', frames.text]);

  const resolution = describeResolution(a, config);
  if (resolution) rows.push(['Resolution', resolution]);

  const samples = num(a.samples);
  if (config.sampleCount !== undefined) rows.push(['Samples', overridden(String(config.sampleCount), samples !== null ? String(samples) : null)]);
  else if (samples !== null) rows.push(['Samples', String(samples)]);

  const camera = describeCamera(a, config);
  if (camera) rows.push(['Camera', camera]);

  const missing = missingChoices(analysis, config);
  const viewLayer = describeViewLayer(a, config, missing.viewLayer);
  if (viewLayer) rows.push(['View layer', viewLayer]);

  const output = describeOutput(a, config);
  if (output) rows.push(['Output', output]);

  const view = text(record(a.colorManagement).viewTransform);
  rows.push(['Colour', `${config.colorManagementPreset} preset${view ? ` (scene view transform: ${view})` : ''}`]);

  const saved = text(a.savedWithBlender);
  const nodeBlender = config.blenderVersion !== undefined ? `${config.blenderVersion} (asked)` : text(a.nodeBlender);
  if (saved || nodeBlender) rows.push(['Blender', [saved && `saved with ${saved}`, nodeBlender && `rendered with ${nodeBlender}`].filter(Boolean).join(', ')]);

  return { rows, warnings: [...choiceWarnings(missing), ...describeWarnings(a, missingAdvice)], notes: describeNotes(a), frameCount: frames?.count ?? null };
}

/** The summary as lines: a heading, aligned rows, then warnings marked with `!`. */
export function formatAnalysisSummary(input: AnalysisSummaryInput): string[] {
  const summary = summarizeAnalysis(input.analysis, input.renderConfig, input.missingAdvice);
  const lines = [safeText(`${input.fileName} (job ${input.jobId})`)];
  if (input.analysis === null || input.analysis === undefined) lines.push('  The server sent no scene analysis; the scene renders with its own settings.');
  lines.push(...formatPairs(summary.rows));
  lines.push(...summary.notes.map((n) => `  Note: ${n}`));
  if (summary.warnings.length > 0) {
    lines.push(`  ${countOf(summary.warnings.length, 'warning')}:`);
    lines.push(...summary.warnings.map((w) => `  ! ${w}`));
  }
  return lines;
}

function describeFrames(a: Record<string, unknown>, config: RenderConfig): { text: string; count: number | null } | null {
  const start = num(a.frameStart);
  const end = num(a.frameEnd);
  const step = num(a.frameStep) ?? 1;
  const sceneRange = start !== null && end !== null ? `${start}-${end}${step > 1 ? ` every ${step}` : ''}` : null;
  const sceneCount = num(a.totalFrames) ?? (start !== null && end !== null && end >= start ? Math.floor((end - start) / Math.max(1, step)) + 1 : null);
  if (config.frameRanges && config.frameRanges.length > 0) {
    const parsed = parseFrameRanges(config.frameRanges);
    const count = parsed.ok ? parsed.frames.length : null;
    const shown = parsed.ok ? formatFrames(parsed.frames) : config.frameRanges.join(',');
    const notes = [count !== null ? countOf(count, 'frame') : null, sceneRange !== null && sceneRange !== shown ? `scene: ${sceneRange}` : null].filter(Boolean);
    return { text: notes.length > 0 ? `${shown} (${notes.join('; ')})` : shown, count };
  }
  if (sceneRange === null) return sceneCount !== null ? { text: countOf(sceneCount, 'frame'), count: sceneCount } : null;
  return { text: `${sceneRange}${sceneCount !== null ? ` (${countOf(sceneCount, 'frame')})` : ''}`, count: sceneCount };
}

function describeResolution(a: Record<string, unknown>, config: RenderConfig): string | null {
  const size = Array.isArray(a.resolution) ? a.resolution.map(num) : [];
  const [w, h] = [size[0] ?? null, size[1] ?? null];
  const scenePercent = num(a.resolutionPercentage);
  const percentage = config.resolutionPercentage ?? scenePercent;
  if (w === null || h === null) return percentage !== null ? overridden(`${percentage}%`, config.resolutionPercentage !== undefined && scenePercent !== null ? `${scenePercent}%` : null) : null;
  if (percentage === null) return `${w} × ${h}`;
  const pixels = `${Math.round((w * percentage) / 100)} × ${Math.round((h * percentage) / 100)} px`;
  const base = `${w} × ${h} at ${percentage}% = ${pixels}`;
  return config.resolutionPercentage !== undefined && scenePercent !== null && scenePercent !== percentage ? `${base} (scene: ${scenePercent}%)` : base;
}

function describeCamera(a: Record<string, unknown>, config: RenderConfig): string | null {
  const active = text(a.activeCamera);
  const cameras = Array.isArray(a.cameras) ? a.cameras.filter((c): c is string => typeof c === 'string').map((c) => safeText(c)) : [];
  const chosen = config.activeCamera ?? active;
  if (!chosen && a.rendersSequencer === true) return 'none needed: the frames come from the video sequencer';
  if (!chosen) return cameras.length > 0 ? `none active (the scene has: ${cameras.join(', ')})` : null;
  const others = cameras.filter((c) => c !== chosen);
  const base = overridden(chosen, config.activeCamera && active && active !== config.activeCamera ? active : null);
  return others.length > 0 ? `${base}; also in the scene: ${others.join(', ')}` : base;
}

function describeViewLayer(a: Record<string, unknown>, config: RenderConfig, missing: string[] | null): string | null {
  if (missing) return `none enabled for rendering (the scene has: ${missing.map((name) => safeText(name)).join(', ')})`;
  if (!config.activeViewLayer) return null;
  return overridden(safeText(config.activeViewLayer), text(a.activeViewLayer));
}

/**
 * Warnings for what the render still needs chosen, with the option that chooses it. They stand for
 * the server's own `no-active-camera` and `no-view-layer-for-render` warnings, whose advice is for
 * the API rather than for this command.
 */
function choiceWarnings(missing: MissingChoices): string[] {
  const out: string[] = [];
  if (missing.camera?.length === 0) {
    out.push('The scene has no camera, so nothing can be rendered. Add a camera in Blender, make it the active camera and save the scene.');
  } else if (missing.camera) {
    const names = missing.camera.map((name) => safeText(name));
    out.push(`The scene has no active camera, so nothing can be rendered. Its cameras: ${names.join(', ')}. Choose one with --camera, e.g. --camera ${shellWord(names[0]!)}.`);
  }
  if (missing.viewLayer) {
    const names = missing.viewLayer.map((name) => safeText(name));
    out.push(`No view layer of the scene is enabled for rendering. Its view layers: ${names.join(', ')}. Choose one with --view-layer, e.g. --view-layer ${shellWord(names[0]!)}.`);
  }
  return out;
}

function describeOutput(a: Record<string, unknown>, config: RenderConfig): string | null {
  const sceneFormat = text(a.outputFormat);
  const format = config.outputFormat ?? sceneFormat;
  if (!format) return null;
  const settings = record(a.outputSettings);
  const mode = text(settings.colorMode);
  const depth = text(settings.colorDepth);
  const detail = [mode, depth && `${depth}-bit`].filter(Boolean).join(' ');
  const shown = `${format}${detail && format === sceneFormat ? `, ${detail}` : ''}`;
  return overridden(shown, config.outputFormat && sceneFormat && sceneFormat !== config.outputFormat ? sceneFormat : null);
}

/** Every warning once: a file named missing by a warning and by its dependency entry, or by two warnings, is told once. */
function describeWarnings(a: Record<string, unknown>, advice: MissingAdvice): string[] {
  const dependencies = Array.isArray(a.dependencies) ? a.dependencies.map(record) : [];
  const byResolved = new Map(dependencies.flatMap((d) => [[text(d.resolvedPath), d], [text(d.path), d]]));
  const out: string[] = [];
  const covered = new Set<Record<string, unknown>>();
  const told = new Set<string>();
  const tellMissing = (dependency: Record<string, unknown>, resolved: string | null) => {
    covered.add(dependency);
    const key = text(dependency.path) ?? resolved ?? '';
    if (told.has(key)) return;
    told.add(key);
    out.push(missingLine(dependency, resolved, advice));
  };
  for (const warning of Array.isArray(a.warnings) ? a.warnings.map(record) : []) {
    if (CHOICE_WARNING_CODES.has(text(warning.code) ?? '') || isNote({ code: text(warning.code) ?? '' })) continue;
    const path = text(warning.path);
    const dependency = path ? byResolved.get(path) : undefined;
    if (text(warning.code) === 'missing-dependency' && dependency) {
      tellMissing(dependency, path);
      continue;
    }
    if (text(warning.code) === 'missing-dependency' && path !== null) {
      if (told.has(path)) continue;
      told.add(path);
    }
    const message = text(warning.message) ?? text(warning.code) ?? 'Warning without a message.';
    out.push(path && !message.includes(path) ? `${message} (${path})` : message);
  }
  const toldKeys = new Set([...told].map(numberedKey));
  for (const dependency of dependencies) {
    if (dependency.exists !== false || dependency.packed === true || covered.has(dependency)) continue;
    const path = text(dependency.path) ?? '';
    if (/<UDIM>|<UVTILE>|#/.test(path) && toldKeys.has(numberedKey(path))) continue;
    tellMissing(dependency, text(dependency.resolvedPath));
  }
  return out;
}

/** The notes among the analysis's warnings (isNote), their messages safe to print. */
function describeNotes(a: Record<string, unknown>): string[] {
  const entries = Array.isArray(a.warnings) ? a.warnings.map(record) : [];
  return entries.flatMap((w) => (isNote({ code: text(w.code) ?? '' }) ? [text(w.message) ?? ''] : [])).filter((m) => m !== '');
}

function missingLine(dependency: Record<string, unknown>, resolved: string | null, advice: MissingAdvice): string {
  const kind = text(dependency.kind) ?? 'file';
  const name = text(dependency.name);
  const stored = text(dependency.path);
  const where = stored ?? resolved ?? 'an unknown path';
  const missingFile = resolved ? lastSegment(resolved) : null;
  const detail = missingFile && stored && lastSegment(stored) !== missingFile ? ` (${missingFile})` : '';
  const said = typeof advice === 'string' ? advice : advice(where);
  return `Missing ${kind}${name ? ` "${name}"` : ''}: ${where}${detail}. ${said}`;
}

/** A path with frame numbers, `#` runs and tile tokens made the same for every frame or tile of it. */
function numberedKey(path: string): string {
  return path.replace(/<UDIM>|<UVTILE>/g, '*').replace(/u\d+_v\d+/g, '*').replace(/#+|\d+/g, '*');
}

function lastSegment(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

function overridden(value: string, sceneValue: string | null): string {
  return sceneValue !== null && sceneValue !== value ? `${value} (scene: ${sceneValue})` : value;
}

function engineName(code: string): string {
  return settingValue('renderEngine', code);
}

function record(value: unknown): Record<string, unknown> {
  return isPlainRecord(value) ? value : {};
}

/** A non-empty string from the analysis, safe to print; null otherwise. */
function text(value: unknown): string | null {
  const safe = typeof value === 'string' ? safeText(value) : '';
  return safe !== '' ? safe : null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
