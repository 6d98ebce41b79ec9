import type { AnalysisWarning, SceneAnalysis } from '../../shared/api';
import { settingLabel, settingValue } from '../../shared/contract';
import type { Adjustment } from './adjustment';
import type { NodeCapabilities } from './node-capabilities';
import { planRender } from './render-plan';
import { applyRenderLimits, type RenderLimits } from './render-limits';

/**
 * The warnings of a validated scene that already say what an adjustment would: a change is not said
 * twice (the denoiser switched off is `denoiser-unavailable`, EEVEE rendered with Cycles is
 * `engine-unavailable`, a video not made is `video-frames-only`).
 */
const SAID_BY: Readonly<Record<string, string>> = {
  denoisingEnabled: 'denoiser-unavailable',
  denoiserType: 'denoiser-unavailable',
  renderEngine: 'engine-unavailable',
  outputFormat: 'video-frames-only',
};

/** Adjustments that only tell how the farm delivers what the scene asks (a video made from PNG frames): notes. */
const DELIVERY_FIELDS: ReadonlySet<string> = new Set(['outputFormat']);

const NO_DIRS = { outputDir: '', compositeOutputDir: '' };

/**
 * What the farm will render differently from the scene as saved, known at validation, before the artist
 * presses Start: the node plans the render it would run with the scene's own settings and says each
 * change with its reason (`farm-change`), a render its limits refuse (`farm-limit`), and how it
 * delivers what the scene asks when that is not what Blender would write (`farm-delivery`, a note: a
 * video made from PNG frames). Changes an existing warning already says are left out.
 */
export function farmChanges(analysis: SceneAnalysis, caps: NodeCapabilities, limits: RenderLimits): AnalysisWarning[] {
  const planned = planRender({ colorManagementPreset: 'default' }, analysis, caps, NO_DIRS);
  if (!planned.ok) return [];
  const limited = applyRenderLimits(planned, limits);
  if (!limited.ok) return [{ code: 'farm-limit', message: limited.message }];
  const said = new Set(analysis.warnings.map((w) => w.code));
  const out: AnalysisWarning[] = [];
  for (const adjustment of limited.finalConfig.adjustments) {
    const saidBy = SAID_BY[adjustment.field];
    if (saidBy && said.has(saidBy)) continue;
    const delivery = DELIVERY_FIELDS.has(adjustment.field) && limited.plan.video;
    out.push({ code: delivery ? 'farm-delivery' : 'farm-change', message: delivery ? adjustment.reason : changeWords(adjustment) });
  }
  return out;
}

/** "Samples: 8,192 in the scene, 4,096 on this farm. This render node renders at most 4,096 samples per frame." */
function changeWords(adjustment: Adjustment): string {
  const plain = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if (!COMPARED_FIELDS.has(adjustment.field) || !plain(adjustment.requested) || !plain(adjustment.used)) return adjustment.reason;
  const field = adjustment.field;
  return `${settingLabel(field)}: ${settingValue(field, adjustment.requested)} in the scene, ${settingValue(field, adjustment.used)} on this farm. ${adjustment.reason}`;
}

/** Settings whose scene value and farm value say the change by themselves. */
const COMPARED_FIELDS: ReadonlySet<string> = new Set(['sampleCount', 'renderEngine', 'computeDeviceType', 'denoisingEnabled', 'denoiserType', 'resolutionPercentage', 'colorManagementPreset']);
