import type { BlendFile, StructView } from '../reader';
import { idName } from './scene-pick';
import { UnsureError } from './stored-scene';

/** Object.type of a camera (DNA_object_types.h). */
const OB_CAMERA = 11;
/** Deepest nesting of collections followed. */
const MAX_DEPTH = 64;

/** Every object of a scene's collections, each once (what `scene.objects` lists). */
export async function sceneObjects(file: BlendFile, scene: StructView): Promise<StructView[]> {
  const master = await file.follow(scene, 'master_collection');
  if (!master) throw new UnsureError('the scene has no master collection');
  const objects = new Map<number, StructView>();
  const seen = new Set<number>();
  const walk = async (collection: StructView, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || seen.has(collection.block)) return;
    seen.add(collection.block);
    for (const entry of await file.list(collection, 'gobject')) {
      const block = file.blockOf(entry, 'ob');
      if (block < 0 || objects.has(block)) continue;
      const object = await file.struct(block);
      if (object) objects.set(block, object);
    }
    for (const child of await file.list(collection, 'children')) {
      const next = await file.follow(child, 'collection');
      if (next) await walk(next, depth + 1);
    }
  };
  await walk(master, 0);
  return [...objects.values()];
}

/** Names of the camera objects among `objects`. */
export function cameraNames(objects: StructView[]): string[] {
  return objects.filter((o) => o.number('type') === OB_CAMERA).map(idName);
}
