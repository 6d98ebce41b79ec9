import { isAbsolute } from 'node:path';
import { readStoredScene, type StoredScene } from '../../blend/scene-settings';
import type { SceneAnalysis } from '../../shared/api';
import { type RawAnalysis, type SceneReaderFacts, toSceneAnalysis } from '../blender';
import { imageDependencies, type PathBase } from './read-analysis-dependencies';
import { outputOf, ReaderUnsure } from './read-analysis-output';
import { pyNormpath } from './python-paths';
import { colourOf, denoiseOf, pythonSorted, rendersSequencerOf, samplesOf } from './read-analysis-render';

/** The analysis read without Blender, or why the node's Blender has to answer. */
export type ReadAnalysisResult = { ok: true; analysis: SceneAnalysis } | { ok: false; unsure: string };

/** Oldest file the reader answers for: Cycles' own versioning changes samples and denoising up to 3.0. */
const OLDEST_FILE: readonly number[] = [3, 1, 0];
/** Blender series whose loading of older files the reader was compared against (test/render-node/scene). */
const CHECKED_SERIES = ['3.4'];

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Why Blender might change the fields read here as it loads a file of this version, or null when it
 * loads them as stored: a file of the node's own series, or of 3.1 up to the node's version on a series
 * the reader was checked against.
 */
export function versionDoubt(file: readonly number[], reader: SceneReaderFacts): string | null {
  const node = reader.facts.fileVersion;
  if (node[0] !== 3 && node[0] !== 4) return `the reader does not know Blender ${reader.version}`;
  if (compare(file, node) > 0) return 'the scene was saved by a newer Blender than the node';
  if (file[0] === node[0] && file[1] === node[1]) return null;
  if (!CHECKED_SERIES.includes(`${node[0]}.${node[1]}`) || compare(file, OLDEST_FILE) < 0) {
    return `Blender ${reader.version} may update a scene saved by Blender ${file[0]}.${file[1]} as it opens it`;
  }
  return null;
}

async function rawAnalysis(scene: StoredScene, reader: SceneReaderFacts, base: PathBase): Promise<RawAnalysis> {
  const doubt = versionDoubt(scene.fileVersion, reader);
  if (doubt) throw new ReaderUnsure(doubt);
  if (!reader.facts.engines.includes(scene.engine)) throw new ReaderUnsure(`the engine ${scene.engine} is not one this Blender has`);
  const { dependencies, warnings } = await imageDependencies(scene.images, base);
  return {
    fileVersion: [...scene.fileVersion],
    nodeFileVersion: [...reader.facts.fileVersion],
    nodeVersion: reader.version,
    scene: scene.name,
    engine: scene.engine,
    frameStart: scene.frameStart,
    frameEnd: scene.frameEnd,
    frameStep: scene.frameStep,
    fps: scene.fps,
    fpsBase: scene.fpsBase,
    resolution: scene.resolution,
    resolutionPercentage: scene.resolutionPercentage,
    samples: samplesOf(scene, reader),
    ...denoiseOf(scene, reader),
    cameras: pythonSorted(scene.cameras),
    activeCamera: scene.activeCamera,
    viewLayers: scene.viewLayers,
    activeViewLayer: scene.activeViewLayer,
    ...outputOf(scene.image, reader.facts),
    outputPath: scene.outputPath,
    colorManagement: colourOf(scene, reader),
    usesCompositor: scene.usesCompositor,
    rendersSequencer: rendersSequencerOf(scene, reader),
    // Sure of the file only when nothing in it simulates (storedImages is unsure of every cache, rigid body and Geometry Nodes modifier).
    simulations: [],
    video: null,
    dependencies,
    warnings,
  };
}

/**
 * The analysis of a scene read from the .blend without Blender: the same object the node's Blender
 * would give (resources/blender/analyze.py through {@link toSceneAnalysis}), or `unsure` with the
 * reason whenever that cannot be vouched for, so that the caller asks Blender.
 */
export async function readSceneAnalysis(scenePath: string, root: string, reader: SceneReaderFacts): Promise<ReadAnalysisResult> {
  if (process.platform === 'win32') return { ok: false, unsure: 'paths are resolved by the reader on POSIX systems only' };
  if (!isAbsolute(scenePath) || !isAbsolute(root) || pyNormpath(scenePath) !== scenePath) {
    return { ok: false, unsure: 'the scene or its folder is not a plain absolute path' };
  }
  const stored = await readStoredScene(scenePath);
  if (!stored.ok) return stored;
  try {
    const raw = await rawAnalysis(stored.scene, reader, { blendPath: scenePath, root });
    return { ok: true, analysis: toSceneAnalysis(raw, reader.version) };
  } catch (error) {
    if (error instanceof ReaderUnsure) return { ok: false, unsure: error.message };
    throw error;
  }
}
