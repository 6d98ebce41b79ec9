import { resolve } from 'node:path';
import { BlendFileError } from '../../blend/reader';
import { severOutsidePaths, type SeveredPath } from '../../blend/pack';
import { NOT_UPLOADED } from './severed-paths';
import { UnreadableSceneError } from './unreadable-scene-error';

/**
 * Before any Blender opens a scene (the node's analysis and render, a worker's render): point the
 * libraries and fonts of the scene in `sceneDir` that lead outside it at nothing (Blender's loader
 * opens them before any script runs). A scene, or a library inside the folder, that the reader cannot
 * read throws an {@link UnreadableSceneError}: its paths are unknown, so it must not reach Blender.
 */
export async function severScene(scenePath: string, sceneDir: string, tempDir: string): Promise<SeveredPath[]> {
  try {
    return await severOutsidePaths(scenePath, sceneDir, { nowhere: NOT_UPLOADED, tempDir });
  } catch (error) {
    if (error instanceof BlendFileError) throw new UnreadableSceneError(error, resolve(sceneDir), resolve(scenePath));
    throw error;
  }
}
