import { relative, sep } from 'node:path';
import { BlendTooLargeError, type BlendFileError } from '../../blend/reader';
import { formatBytes } from '../../shared/text';
import type { FailedReason } from '../../shared/api';

/**
 * A scene (or a library inside its folder) that the node's .blend reader cannot read, so its paths
 * could not be checked: it never reaches Blender. The message is one line for the artist, naming the
 * file as it lies in the upload, never where it lies on the node.
 */
export class UnreadableSceneError extends Error {
  override readonly name = 'UnreadableSceneError';
  readonly reason: FailedReason & { message: string };

  constructor(error: BlendFileError, sceneDir: string, scenePath: string) {
    const name = relative(sceneDir, error.path).split(sep).join('/') || 'the scene';
    const isScene = error.path === scenePath;
    const reason = isScene ? sceneReason(error, name) : { name: 'SceneUnreadable', type: 'scene', message: libraryMessage(name) };
    super(reason.message);
    this.reason = reason;
  }
}

function sceneReason(error: BlendFileError, name: string): FailedReason & { message: string } {
  if (error.code === 'not-blend') {
    return { name: 'NotABlendFile', type: 'scene', message: `${name} is not a Blender file (it does not start with a .blend header). Upload a scene saved by Blender, or a .zip holding one.` };
  }
  if (error instanceof BlendTooLargeError) {
    return {
      name: 'SceneUnreadable',
      type: 'scene',
      message: `${name} unpacks to more than ${formatBytes(error.limitBytes)}, more than this node opens. Make the scene smaller, for example by moving assets into linked libraries.`,
    };
  }
  if (error.code === 'unsupported') {
    return {
      name: 'SceneUnreadable',
      type: 'scene',
      message: `${name} is saved in a form this node cannot read. Save it again from Blender without compression, or ask whoever runs the node to update Renderdrop.`,
    };
  }
  return { name: 'SceneUnreadable', type: 'scene', message: `${name} is damaged or is not a .blend Renderdrop can read. Open it in Blender, save it again and submit it again.` };
}

function libraryMessage(name: string): string {
  return `${name}, a library the scene links, is damaged or is not a .blend Renderdrop can read. Open it in Blender, save it again and submit the scene again.`;
}
