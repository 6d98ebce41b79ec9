import { parseFrameRanges, sceneFrames } from '../../shared/render';
import type { RenderConfig, SceneAnalysis } from '../../shared/api';

/** Why the node will not render a request, in one line. */
export interface PlanRefusal {
  ok: false;
  code: string;
  message: string;
}

/** A choice among the scene's own frames, cameras or view layers; a request naming one it lacks is refused. */
export type SceneChoice<T> = { ok: true; value: T } | PlanRefusal;

/** The frames to render: the requested ranges, else the scene's own range. */
export function chooseFrames(requested: RenderConfig, analysis: SceneAnalysis): SceneChoice<number[]> {
  let frames: number[];
  if (requested.frameRanges && requested.frameRanges.length > 0) {
    const parsed = parseFrameRanges(requested.frameRanges);
    if (!parsed.ok) return { ok: false, code: 'invalid_frame_ranges', message: `frameRanges: ${parsed.error}` };
    frames = parsed.frames;
  } else {
    frames = sceneFrames(analysis.frameStart, analysis.frameEnd, analysis.frameStep);
  }
  if (frames.length === 0) return { ok: false, code: 'invalid_frame_ranges', message: 'The scene has no frames to render.' };
  return { ok: true, value: frames };
}

/**
 * The camera to render from: the requested one if the scene has it, else the scene's active camera;
 * null (none needed) for a scene whose frames come from its video sequencer.
 */
export function chooseCamera(requested: RenderConfig, analysis: SceneAnalysis): SceneChoice<string | null> {
  const camera = requested.activeCamera ?? analysis.activeCamera;
  if (requested.activeCamera && !analysis.cameras.includes(requested.activeCamera)) {
    return { ok: false, code: 'unknown_camera', message: `The scene has no camera "${requested.activeCamera}" (it has: ${analysis.cameras.join(', ') || 'none'}).` };
  }
  if (!camera && !analysis.rendersSequencer) return { ok: false, code: 'no_camera', message: 'The scene has no camera to render from; add one or choose activeCamera.' };
  return { ok: true, value: camera };
}

/** The view layer to render alone: the requested one if the scene has it, else the scene's active one (null: all). */
export function chooseViewLayer(requested: RenderConfig, analysis: SceneAnalysis): SceneChoice<string | null> {
  const layerNames = analysis.viewLayers.map((l) => l.name);
  if (requested.activeViewLayer && !layerNames.includes(requested.activeViewLayer)) {
    return { ok: false, code: 'unknown_view_layer', message: `The scene has no view layer "${requested.activeViewLayer}" (it has: ${layerNames.join(', ')}).` };
  }
  return { ok: true, value: requested.activeViewLayer ?? analysis.activeViewLayer };
}
