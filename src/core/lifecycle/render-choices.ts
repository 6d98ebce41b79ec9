import { z } from 'zod';
import type { RenderConfig } from '../../shared/api';

/** What a render of a scene still needs chosen before it can start, by what validation found. */
export interface MissingChoices {
  /** No camera is active and none is chosen: the cameras there are (empty when the scene has none). */
  camera: string[] | null;
  /** No view layer is enabled for rendering and none is chosen: the view layers there are. */
  viewLayer: string[] | null;
}

/** The fields of an analysis this reads; other servers may send other shapes, which then need nothing. */
const sceneChoicesSchema = z.looseObject({
  cameras: z.array(z.string()).catch([]),
  activeCamera: z.string().nullable().optional().catch(undefined),
  viewLayers: z.array(z.looseObject({ name: z.string(), useForRender: z.boolean() })).catch([]),
  /** The video sequencer makes the frames: no camera or view layer is needed (absent from other servers). */
  rendersSequencer: z.boolean().optional().catch(undefined),
});

/** The cameras and view layers of a scene as its analysis names them (empty lists when it does not). */
export type SceneChoices = z.infer<typeof sceneChoicesSchema>;

/** The cameras and view layers an analysis names; null when the analysis is not an object. */
export function sceneChoicesOf(analysis: unknown): SceneChoices | null {
  const parsed = sceneChoicesSchema.safeParse(analysis);
  return parsed.success ? parsed.data : null;
}

/**
 * What `config` leaves unchosen that the scene needs: a camera when the analysis says none is active
 * (`activeCamera: null`), a view layer when none of its view layers is enabled for rendering; nothing
 * when the analysis says the video sequencer makes the frames.
 */
export function missingChoices(analysis: unknown, config: RenderConfig): MissingChoices {
  const scene = sceneChoicesOf(analysis);
  if (!scene || scene.rendersSequencer === true) return { camera: null, viewLayer: null };
  const cameraMissing = scene.activeCamera === null && config.activeCamera === undefined;
  const layers = scene.viewLayers;
  const layerMissing = layers.length > 0 && !layers.some((layer) => layer.useForRender) && config.activeViewLayer === undefined;
  return { camera: cameraMissing ? scene.cameras : null, viewLayer: layerMissing ? layers.map((layer) => layer.name) : null };
}
