import { type SceneAnalysis, outputFormatSchema, renderConfigSchema, type RenderConfig } from '../../shared/api';
import { parseFrameRanges } from '../../shared/render';

/** The scene's own frame range as a frame range expression (`1-250`, `1-250/2`). */
export function sceneRange(analysis: Pick<SceneAnalysis, 'frameStart' | 'frameEnd' | 'frameStep'>): string {
  const base = analysis.frameStart === analysis.frameEnd ? `${analysis.frameStart}` : `${analysis.frameStart}-${analysis.frameEnd}`;
  return analysis.frameStep > 1 && analysis.frameStart !== analysis.frameEnd ? `${base}/${analysis.frameStep}` : base;
}

/** The render settings validation detected, as overrides the review sheet starts from. */
export function detectedConfig(analysis: SceneAnalysis | null): RenderConfig {
  if (!analysis) return { colorManagementPreset: 'default' };
  const config: RenderConfig = { colorManagementPreset: 'default', frameRanges: [sceneRange(analysis)], resolutionPercentage: analysis.resolutionPercentage };
  if (analysis.samples !== null && analysis.samples >= 1) config.sampleCount = analysis.samples;
  if (analysis.activeCamera) config.activeCamera = analysis.activeCamera;
  if (analysis.activeViewLayer) config.activeViewLayer = analysis.activeViewLayer;
  const format = outputFormatSchema.safeParse(analysis.outputFormat);
  if (format.success) config.outputFormat = format.data;
  return config;
}

/**
 * Settings remembered for a scene, fitted to what validation found now: a camera or view layer that
 * no longer exists, or a frame range that no longer parses, falls back to the detected value.
 */
export function fitToAnalysis(remembered: RenderConfig, analysis: SceneAnalysis | null): RenderConfig {
  const detected = detectedConfig(analysis);
  const out: RenderConfig = { ...detected, ...remembered };
  if (analysis) {
    if (out.activeCamera && !analysis.cameras.includes(out.activeCamera)) delete out.activeCamera;
    if (out.activeViewLayer && !analysis.viewLayers.some((v) => v.name === out.activeViewLayer)) delete out.activeViewLayer;
    if (detected.activeCamera && !out.activeCamera) out.activeCamera = detected.activeCamera;
    if (detected.activeViewLayer && !out.activeViewLayer) out.activeViewLayer = detected.activeViewLayer;
  }
  if (out.frameRanges && !parseFrameRanges(out.frameRanges).ok) {
    if (detected.frameRanges) out.frameRanges = detected.frameRanges;
    else delete out.frameRanges;
  }
  const checked = renderConfigSchema.safeParse(out);
  return checked.success ? checked.data : detected;
}
