import type { AnalysisWarning, FailedReason, SceneAnalysis } from '../../shared/api';
import { blenderSeries, chooseBlenderVersion, distinctBlenderVersions } from '../../shared/blender-versions';

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
  if (chosen !== null && saved !== null && blenderSeries(chosen) !== blenderSeries(saved)) {
    warnings.push({
      code: 'different-blender',
      message: `Saved with Blender ${saved}, rendered with Blender ${chosen}: this farm has no Blender ${saved}, and a newer one may render some things differently.`,
    });
  }
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
