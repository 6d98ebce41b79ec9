import type { BlendFile, StructView } from '../reader';
import { idName, isLinked } from './scene-pick';
import { sure, UnsureError, type StoredImage } from './stored-scene';

/** Image.type and Image.source values (DNA_image_types.h). */
const IMA_TYPE_IMAGE = 0;
const IMA_TYPE_R_RESULT = 4;
const IMA_TYPE_COMPOSITE = 5;
const IMA_SRC_FILE = 1;
const IMA_SRC_GENERATED = 4;
const IMA_SRC_VIEWER = 5;

/** Data-blocks whose files the reader leaves to Blender (libraries, sounds, clips, volumes, caches). */
const LEFT_TO_BLENDER = ['LI', 'SO', 'MC', 'VO', 'CF'];

/** Modifiers whose caches the analysis reports (fluid, ocean, cloth, soft body, collision, dynamic paint). */
const CACHE_MODIFIERS = new Set([
  'FluidModifierData',
  'FluidsimModifierData',
  'OceanModifierData',
  'ClothModifierData',
  'SoftbodyModifierData',
  'CollisionModifierData',
  'DynamicPaintModifierData',
  'ParticleSystemModifierData',
]);

async function isPacked(file: BlendFile, image: StructView): Promise<boolean> {
  if (image.pointer('packedfile') !== 0n) return true;
  for (const entry of await file.list(image, 'packedfiles')) if (entry.pointer('packedfile') !== 0n) return true;
  return false;
}

/** An image the analysis lists, null when it skips it; unsure for sources the reader does not follow. */
async function storedImage(file: BlendFile, image: StructView): Promise<StoredImage | null> {
  if (isLinked(image)) throw new UnsureError('an image is linked from a library');
  const type = sure(image.number('type'), 'an image type');
  const source = sure(image.number('source'), 'an image source');
  if (type === IMA_TYPE_R_RESULT || type === IMA_TYPE_COMPOSITE || source === IMA_SRC_GENERATED || source === IMA_SRC_VIEWER) return null;
  if (await isPacked(file, image)) return null;
  if (type !== IMA_TYPE_IMAGE || source !== IMA_SRC_FILE) throw new UnsureError('an image is a sequence, movie, tiles or multilayer');
  return { name: idName(image), path: sure(image.string('filepath'), 'an image path') };
}

/**
 * The files the scene's analysis lists when they are all plain images: unsure when the file holds
 * anything else the analysis reports (libraries, sounds, clips, volumes, caches, fonts from disk,
 * rigid body or modifier caches, Geometry Nodes that may simulate; the scene's sequencer strips are
 * judged by readStoredScene). A file it is sure of simulates nothing.
 */
export async function storedImages(file: BlendFile, scene: StructView): Promise<StoredImage[]> {
  for (const code of LEFT_TO_BLENDER) if (file.idBlocks(code).length > 0) throw new UnsureError(`the file holds ${code} data-blocks`);
  for (const block of file.idBlocks('VF')) {
    const font = await file.struct(block);
    if (!font || font.string('filepath') !== '<builtin>') throw new UnsureError('the file uses a font from disk');
  }
  if (scene.pointer('rigidbody_world') !== 0n) throw new UnsureError('the scene has a rigid body world');
  for (const block of file.idBlocks('OB')) {
    const object = await file.struct(block);
    if (!object) throw new UnsureError('an object cannot be read');
    if ((await file.list(object, 'particlesystem')).length > 0) throw new UnsureError('an object has particles');
    for (const modifier of await file.list(object, 'modifiers')) {
      const kind = file.structOf(modifier.block)?.name ?? '';
      if (CACHE_MODIFIERS.has(kind)) throw new UnsureError('an object has a modifier with a cache');
      // Its node tree may hold a simulation zone, which Blender's analysis lists.
      if (kind === 'NodesModifierData') throw new UnsureError('an object has a Geometry Nodes modifier');
    }
  }
  const out: StoredImage[] = [];
  for (const block of file.idBlocks('IM')) {
    const image = await file.struct(block);
    const stored = image ? await storedImage(file, image) : null;
    if (stored) out.push(stored);
  }
  return out;
}
