import type { Job, RenderConfig } from '../../shared/api';
import { recordedRenderConfig, type SubmissionRecord } from '../journal';
import type { RenderProposal } from './lifecycle-events';
import { missingChoices, sceneChoicesOf } from './render-choices';

/** The configuration a render starts with when nobody chose one. */
export const DEFAULT_RENDER_CONFIG: RenderConfig = { colorManagementPreset: 'default' };

/**
 * Why a render configuration cannot work with the scene validation found, checked before anything is
 * sent; null when it can: a camera or view layer the scene lacks, or no camera where the scene has
 * none active, which the server would only refuse. (No view layer enabled for rendering is a warning:
 * a server may render the active one.)
 */
export function renderConfigProblem(analysis: unknown, config: RenderConfig): string | null {
  const scene = sceneChoicesOf(analysis);
  if (!scene) return null;
  const { cameras, viewLayers } = scene;
  if (config.activeCamera && cameras.length > 0 && !cameras.includes(config.activeCamera)) {
    return `The scene has no camera "${config.activeCamera}" (it has: ${cameras.join(', ')}). Nothing was rendered; submit again with one of these.`;
  }
  const layerNames = viewLayers.map((layer) => layer.name);
  if (config.activeViewLayer && layerNames.length > 0 && !layerNames.includes(config.activeViewLayer)) {
    return `The scene has no view layer "${config.activeViewLayer}" (it has: ${layerNames.join(', ')}). Nothing was rendered; submit again with one of these.`;
  }
  const missing = missingChoices(analysis, config);
  if (missing.camera?.length === 0) {
    return 'The scene has no camera, so nothing can be rendered. Add a camera in Blender, make it the active camera, save the scene and submit it again.';
  }
  if (missing.camera) {
    return `The scene has no active camera, so nothing was rendered. Submit it again choosing one of its cameras: ${missing.camera.join(', ')}.`;
  }
  return null;
}

/** The settings a render of this record starts from: `chosen`, else the recorded ones, else the default. */
export function renderConfigFor(record: Pick<SubmissionRecord, 'renderConfig'>, chosen?: RenderConfig): RenderConfig {
  return chosen ?? recordedRenderConfig(record) ?? DEFAULT_RENDER_CONFIG;
}

/** What review shows for a validated job: its analysis and the settings to render with, checked. */
export function proposalFor(job: Job, renderConfig: RenderConfig): RenderProposal {
  const analysis = job.analysis ?? null;
  return { job, analysis, renderConfig, problem: renderConfigProblem(analysis, renderConfig) };
}
