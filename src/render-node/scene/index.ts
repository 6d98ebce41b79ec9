/** What other rooms of render-node use of render-node/scene: the room's public surface. */
export { analyzeSceneQuickly } from './scene-analysis';
export { prepareScene, type ScenePrepareDeps } from './scene-prepare';
export { severScene } from './sever-scene';
export { reportSeveredAsStored } from './severed-paths';
export { chooseScene, extractZip, ZipError } from './zip-extract';
