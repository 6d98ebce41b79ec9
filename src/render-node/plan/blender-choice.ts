import type { AnalysisWarning, FailedReason, SceneAnalysis } from '../../shared/api';
import { blenderSeries, chooseBlenderVersion, distinctBlenderVersions, opensSeries, pickedBlenderVersion, versionsOpening } from '../../shared/blender-versions';

/** A Blender that renders for the node: its own, or a render worker's. */
export interface Renderer {
  /** e.g. "4.3.2" */
  version: string;
  /** Whether it can render EEVEE and Workbench (they draw with the GPU); null: not checked. */
  eevee: boolean | null;
}

/** Where a node's frames are made: with its own Blender, or by its render workers. */
export type RenderedBy = 'node' | 'workers';

const DRAWING_ENGINES = new Set(['BLENDER_EEVEE', 'BLENDER_EEVEE_NEXT', 'BLENDER_WORKBENCH']);

/** Whether an engine draws with the GPU (EEVEE, Workbench), which a Blender without an OpenGL context cannot. */
export function needsDrawing(engine: string | null | undefined): boolean {
  return engine !== null && engine !== undefined && DRAWING_ENGINES.has(engine);
}

/** The name artists know an engine by. */
export function engineName(engine: string): string {
  if (engine.startsWith('BLENDER_EEVEE')) return 'EEVEE';
  if (engine === 'BLENDER_WORKBENCH') return 'Workbench';
  return engine === 'CYCLES' ? 'Cycles' : engine;
}

/**
 * Whether the renderers of Blender `version` (null: all of them) can render EEVEE and Workbench: true
 * when one can (chunks that need it go to those), false when every one cannot, null when none says.
 */
export function drawingOf(renderers: readonly Renderer[], version: string | null): boolean | null {
  const of = renderers.filter((r) => version === null || r.version === version);
  if (of.some((r) => r.eevee === true)) return true;
  return of.length > 0 && of.every((r) => r.eevee === false) ? false : null;
}

/**
 * Whether the Blenders that would render a scene can render EEVEE and Workbench, as {@link drawingOf}
 * says of those of the version chosen for it.
 */
export function drawingFor(analysis: Pick<SceneAnalysis, 'savedWithBlender'>, renderers: readonly Renderer[]): boolean | null {
  return drawingOf(renderers, chooseBlenderVersion(analysis.savedWithBlender, renderers.map((r) => r.version)));
}

/** What validation says of where a scene will render, and whether it can render there at all. */
export interface RendererFindings {
  warnings: AnalysisWarning[];
  /** Set when no renderer can open the scene: the validation fails with it. */
  refusal: FailedReason | null;
}

/**
 * What validation tells of the Blenders that will render a scene (`renderers`; null when they cannot
 * be listed now): the version chosen for it when it differs from the one that saved it, an engine they
 * cannot render (the plan then uses Cycles), no render worker connected, or no worker able to open it.
 */
export function rendererFindings(analysis: SceneAnalysis, renderers: readonly Renderer[] | null, by: RenderedBy): RendererFindings {
  const warnings: AnalysisWarning[] = [];
  if (renderers === null) return { warnings, refusal: null };
  if (renderers.length === 0) {
    if (by === 'workers') {
      warnings.push({ code: 'no-render-workers', message: 'No render worker is connected to this node right now; the render will wait until one starts.' });
    }
    return { warnings, refusal: null };
  }
  const saved = analysis.savedWithBlender;
  const chosen = chooseBlenderVersion(saved, renderers.map((r) => r.version));
  if (chosen === null && saved !== null && by === 'workers') return { warnings, refusal: tooNew(saved, renderers) };
  const different = chosen === null ? null : differentBlender(saved, chosen, false);
  if (different) warnings.push(different);
  if (needsDrawing(analysis.engine) && drawingOf(renderers, chosen) === false) {
    const name = engineName(analysis.engine);
    warnings.push({
      code: 'engine-unavailable',
      message: `This farm's Blender cannot render ${name} (it has no GPU drawing here): Start renders this job with Cycles instead, which looks different and may take longer. To keep ${name}, send it to another farm.`,
    });
  }
  return { warnings, refusal: null };
}

function tooNew(saved: string, renderers: readonly Renderer[]): FailedReason {
  const versions = distinctBlenderVersions(renderers.map((r) => r.version)).join(', ');
  return {
    name: 'SceneTooNew',
    type: 'blender',
    message: `The scene was saved with Blender ${saved}, and this farm's render workers have Blender ${versions} only, which cannot open it. Send it to a farm with Blender ${saved} or newer.`,
  };
}

/**
 * The `different-blender` warning of a scene saved by the series `saved` and rendered with Blender
 * `chosen` (the farm's choice, or the artist's when `picked`); null when they are of one series.
 */
export function differentBlender(saved: string | null, chosen: string, picked: boolean): AnalysisWarning | null {
  if (saved === null || blenderSeries(chosen) === blenderSeries(saved)) return null;
  const why = picked ? ' as asked:' : `: this farm has no Blender ${saved}, and`;
  return { code: 'different-blender', message: `Saved with Blender ${saved}, rendered with Blender ${chosen}${why} a newer one may render some things differently.` };
}

/** The analysis with its `different-blender` warning told anew for the Blender `chosen` (see {@link differentBlender}). */
export function withBlenderWarning<T extends Pick<SceneAnalysis, 'savedWithBlender' | 'warnings'>>(analysis: T, chosen: string, picked: boolean): T {
  const different = differentBlender(analysis.savedWithBlender, chosen, picked);
  const others = analysis.warnings.filter((w) => w.code !== 'different-blender');
  return { ...analysis, warnings: different ? [...others, different] : others };
}

/** The Blender version a render asked for, as the node has it, or why the node refuses it. */
export type BlenderPick = { ok: true; version: string } | { ok: false; message: string };

/**
 * Check the Blender version a render request names (`asked`: a series or an exact version) against
 * the Blenders that render here: the lowest one of the node that it names, unless the node has none
 * (its render workers' versions, or only its own Blender) or that one is older than the scene's.
 */
export function pickBlender(asked: string, saved: string | null, renderers: readonly Renderer[], by: RenderedBy): BlenderPick {
  const available = distinctBlenderVersions(renderers.map((r) => r.version));
  const whose = by === 'workers' ? "its render workers'" : 'its own';
  const has = available.length === 0 ? (by === 'workers' ? 'no render worker is connected' : 'it has no Blender') : `it renders with Blender ${available.join(', ')} (${whose})`;
  const openable = versionsOpening(saved, available);
  const ask = openable.length === 1 ? `ask for ${openable[0]}, or ` : openable.length > 1 ? `ask for one of ${openable.join(', ')}, or ` : '';
  const instead = `${ask}leave the choice to the farm`;
  const version = pickedBlenderVersion(asked, available);
  if (version === null) return { ok: false, message: `This node has no Blender ${asked}: ${has}; ${instead}.` };
  if (saved !== null && !opensSeries(version, saved)) {
    return { ok: false, message: `The scene was saved with Blender ${saved}, which Blender ${version} cannot open: ${instead}.` };
  }
  return { ok: true, version };
}
