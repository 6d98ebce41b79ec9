import type { BlendFile, StructView } from '../reader';
import { sure, UnsureError } from './stored-scene';

/** The scene a file opens on and the name of its active view layer, as Blender's window gives them. */
export interface OpenedScene {
  scene: StructView;
  viewLayer: string;
  subversion: number;
}

/**
 * The scene and view layer Blender's context has once the file is open: the file's current scene
 * (`FileGlobal.curscene`), which every window must show, and the view layer its windows name.
 * Unsure when the windows disagree, when there is no window, or when the names lead nowhere.
 */
export async function pickScene(file: BlendFile): Promise<OpenedScene> {
  const globalBlock = file.idBlocks('GLOB')[0];
  const global = globalBlock === undefined ? null : await file.struct(globalBlock);
  if (!global) throw new UnsureError('the file has no global block');
  const sceneBlock = file.blockOf(global, 'curscene');
  if (sceneBlock < 0) throw new UnsureError('the file names no current scene');
  const scene = sure(await file.struct(sceneBlock), 'the current scene');
  const layerNames = new Set<string>();
  for (const wm of file.idBlocks('WM')) {
    const manager = await file.struct(wm);
    if (!manager) continue;
    for (const window of await file.list(manager, 'windows')) {
      if (file.blockOf(window, 'scene') !== sceneBlock) throw new UnsureError('a window shows another scene');
      layerNames.add(sure(window.string('view_layer_name'), 'a window view layer'));
    }
  }
  if (layerNames.size !== 1) throw new UnsureError(layerNames.size === 0 ? 'the file has no window' : 'the windows show different view layers');
  return { scene, viewLayer: [...layerNames][0]!, subversion: sure(global.number('subversion'), 'the file subversion') };
}

/** The name of a data-block without its two-letter code. */
export function idName(view: StructView): string {
  const header = view.embedded('id');
  return sure(header?.string('name'), 'a data-block name').slice(2);
}

/** Whether a data-block comes from a library. */
export function isLinked(view: StructView): boolean {
  const header = view.embedded('id');
  return header !== null && header.pointer('lib') !== 0n;
}
