/** What other layers use of blend/scene-settings: a scene's render settings read without Blender. */
export { readStoredScene } from './read-stored-scene';
export { IDP_BOOLEAN, IDP_INT } from './id-properties';
export type { StoredCyclesProperty, StoredImage, StoredScene, StoredSceneResult, StoredSequencer, StoredStrip } from './stored-scene';
