import { join } from 'node:path';
import type { FailedReason } from '../../shared/api';
import { formatBytes } from '../../shared/text';
import { checkBlendContent } from '../../blend/reader';

/**
 * Why the .blend files `blends` (paths relative to `sceneDir`) must not be opened: one is not a
 * .blend once unpacked, unpacks past `maxBytes` (the node's limit), or its compressed data does not
 * hold together. Each is unpacked as a stream, nothing written, stopping at the first bad byte; null
 * when all may be opened. The message names the file as it lies in the upload.
 */
export async function sceneContentRefusal(sceneDir: string, blends: readonly string[], maxBytes: number): Promise<FailedReason | null> {
  for (const file of blends) {
    const verdict = await checkBlendContent(join(sceneDir, file), maxBytes);
    if (verdict.ok) continue;
    if (verdict.problem === 'too-large') {
      return {
        name: 'SceneTooLarge',
        type: 'scene',
        message: `${file} unpacks to more than ${formatBytes(maxBytes)}; this render node opens scenes up to that size. Make the scene smaller and submit it again.`,
      };
    }
    if (verdict.problem === 'not-blend') {
      return {
        name: 'NotABlendFile',
        type: 'scene',
        message: `${file} is not a Blender file once unpacked (it does not start with a .blend header). Upload a scene saved by Blender, or a .zip holding one.`,
      };
    }
    return {
      name: 'SceneUnreadable',
      type: 'scene',
      message: `${file} is damaged: its compressed data does not hold together. Open it in Blender, save it again and submit it again.`,
    };
  }
  return null;
}
