import { BlendError, BlendFile, type StructView } from '../reader';
import { idProperties, idPropertyGroup, IDP_GROUP, type StoredIdProperty } from './id-properties';
import { cameraNames, sceneObjects } from './scene-objects';
import { idName, isLinked, pickScene } from './scene-pick';
import { storedImages } from './stored-images';
import { storedSequencer, stripReadsMore } from './stored-sequencer';
import { sure, UnsureError, type StoredCyclesProperty, type StoredScene, type StoredSceneResult } from './stored-scene';

/** RenderData.scemode: the compositor runs. */
const R_DOCOMP = 1 << 6;
/** ViewLayer.flag: the layer renders. */
const VIEW_LAYER_RENDER = 1 << 0;

function num(view: StructView | null, field: string, what: string): number {
  return sure(view?.number(field), what);
}

function str(view: StructView | null, field: string, what: string): string {
  return sure(view?.string(field), what);
}

/** What Blender's loader may change after reading: animation on the scene, cameras bound to markers. */
async function checkNothingMovesSettings(file: BlendFile, scene: StructView): Promise<void> {
  if (isLinked(scene)) throw new UnsureError('the scene is linked from a library');
  if (scene.pointer('adt') !== 0n) throw new UnsureError('the scene has animation or drivers');
  for (const marker of await file.list(scene, 'markers')) {
    if (marker.pointer('camera') !== 0n) throw new UnsureError('a timeline marker binds a camera');
  }
}

async function cyclesProperties(file: BlendFile, scene: StructView): Promise<Map<string, StoredCyclesProperty>> {
  const group: StoredIdProperty | undefined = (await idProperties(file, scene)).get('cycles');
  const out = new Map<string, StoredCyclesProperty>();
  if (!group) return out;
  if (group.type !== IDP_GROUP) throw new UnsureError('the Cycles settings are not a property group');
  for (const [name, prop] of await idPropertyGroup(file, group.view)) out.set(name, { type: prop.type, int: prop.int });
  return out;
}

async function viewLayers(file: BlendFile, scene: StructView): Promise<StoredScene['viewLayers']> {
  return (await file.list(scene, 'view_layers')).map((layer) => ({
    name: str(layer, 'name', 'a view layer name'),
    useForRender: (num(layer, 'flag', 'a view layer flag') & VIEW_LAYER_RENDER) !== 0,
  }));
}

async function usesCompositor(file: BlendFile, scene: StructView, scemode: number): Promise<boolean> {
  if (!scene.has('use_nodes')) throw new UnsureError('the scene has no use_nodes flag');
  if (num(scene, 'use_nodes', 'use_nodes') === 0 || (scemode & R_DOCOMP) === 0) return false;
  const tree = await file.follow(scene, 'nodetree');
  if (!tree) return false;
  const nodes = file.embedded(tree, 'nodes');
  return sure(nodes, 'the compositor nodes').pointer('first') !== 0n;
}

function outputImage(r: StructView | null): StoredScene['image'] {
  const f = r ? r.embedded('im_format') : null;
  return {
    imtype: num(f, 'imtype', 'the output format'),
    planes: num(f, 'planes', 'the colour mode'),
    depth: num(f, 'depth', 'the colour depth'),
    quality: num(f, 'quality', 'the quality'),
    compress: num(f, 'compress', 'the compression'),
    exrCodec: num(f, 'exr_codec', 'the EXR codec'),
    tiffCodec: f?.number('tiff_codec') ?? null,
  };
}

function colour(scene: StructView): StoredScene['colour'] {
  const view = scene.embedded('view_settings');
  return {
    display: str(scene.embedded('display_settings'), 'display_device', 'the display device'),
    view: str(view, 'view_transform', 'the view transform'),
    look: str(view, 'look', 'the look'),
    exposure: num(view, 'exposure', 'the exposure'),
    gamma: num(view, 'gamma', 'the gamma'),
    sequencer: str(scene.embedded('sequencer_colorspace_settings'), 'name', 'the sequencer colour space'),
  };
}

async function readScene(file: BlendFile): Promise<StoredScene> {
  const { scene, viewLayer, subversion } = await pickScene(file);
  await checkNothingMovesSettings(file, scene);
  const r = scene.embedded('r');
  const cameraBlock = file.blockOf(scene, 'camera');
  const camera = cameraBlock < 0 ? null : await file.struct(cameraBlock);
  const version = file.header.version;
  const layers = await viewLayers(file, scene);
  if (!layers.some((l) => l.name === viewLayer)) throw new UnsureError('the window names a view layer the scene lacks');
  const scemode = num(r, 'scemode', 'the scene mode');
  const sequencer = await storedSequencer(file, scene, scemode);
  if (sequencer.strips.some(stripReadsMore)) throw new UnsureError('the scene has sequencer strips that read files, other strips or other scenes');
  return {
    fileVersion: [Math.floor(version / 100), version % 100, subversion],
    name: idName(scene),
    engine: str(r, 'engine', 'the engine'),
    frameStart: num(r, 'sfra', 'the first frame'),
    frameEnd: num(r, 'efra', 'the last frame'),
    frameStep: num(r, 'frame_step', 'the frame step'),
    fps: num(r, 'frs_sec', 'the frame rate'),
    fpsBase: num(r, 'frs_sec_base', 'the frame rate base'),
    resolution: [num(r, 'xsch', 'the width'), num(r, 'ysch', 'the height')],
    resolutionPercentage: num(r, 'size', 'the resolution percentage'),
    eeveeSamples: scene.embedded('eevee')?.number('taa_render_samples') ?? null,
    cycles: await cyclesProperties(file, scene),
    cameras: cameraNames(await sceneObjects(file, scene)),
    activeCamera: cameraBlock < 0 ? null : idName(sure(camera, 'the active camera')),
    viewLayers: layers,
    activeViewLayer: viewLayer,
    image: outputImage(r),
    outputPath: str(r, 'pic', 'the output path'),
    colour: colour(scene),
    usesCompositor: await usesCompositor(file, scene, scemode),
    sequencer,
    images: await storedImages(file, scene),
  };
}

/**
 * Read the render settings of the scene `file` opens on, without Blender. Says it is unsure (never
 * guesses) when a field cannot be read or when Blender could read something else than what is stored:
 * linked or animated scene data, cameras bound to markers, files the analysis lists other than plain
 * images, sequencer strips other than effects (colour, text, adjustment...).
 */
export async function readStoredScene(path: string): Promise<StoredSceneResult> {
  let file: BlendFile;
  try {
    file = await BlendFile.open(path);
  } catch (error) {
    if (error instanceof BlendError) return { ok: false, unsure: `the reader cannot open the file (${error.message})` };
    throw error;
  }
  try {
    return { ok: true, scene: await readScene(file) };
  } catch (error) {
    if (error instanceof UnsureError) return { ok: false, unsure: error.message };
    if (error instanceof BlendError) return { ok: false, unsure: `the reader cannot read the file (${error.message})` };
    throw error;
  } finally {
    await file.close();
  }
}
