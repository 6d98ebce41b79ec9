import { dirname } from 'node:path';
import type { SceneAnalysis } from '../../shared/api';
import { analyzeScene, type AnalyzeSceneOptions, type SceneReaderFacts } from '../blender';
import { readSceneAnalysis } from './read-analysis';
import { readScenePythonWarnings } from './scene-python-warnings';

/** Input of {@link analyzeSceneQuickly}: Blender's analysis options, and what the reader needs of that Blender. */
export interface QuickAnalysisOptions extends AnalyzeSceneOptions {
  /** The node's Blender's facts (from its probe); without them Blender always answers. */
  reader?: SceneReaderFacts | null;
  /** Whether the node's Blender runs the scene's Python (drivers, registered text blocks): the analysis says so of each. */
  runsScenePython?: boolean;
}

/** Where an analysis came from, and why Blender was asked when it was. */
export interface QuickAnalysis {
  analysis: SceneAnalysis;
  source: 'reader' | 'blender';
  /** Why the reader left the answer to Blender. */
  unsure: string | null;
}

async function tryReader(options: QuickAnalysisOptions, reader: SceneReaderFacts): Promise<QuickAnalysis | string> {
  try {
    const read = await readSceneAnalysis(options.scenePath, options.sceneRoot ?? dirname(options.scenePath), reader);
    return read.ok ? { analysis: read.analysis, source: 'reader', unsure: null } : read.unsure;
  } catch (error) {
    return `the reader failed (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * Analyse a scene without starting Blender when the .blend reader can vouch for every answer (the same
 * object the node's Blender gives), else with Blender ({@link analyzeScene}, which throws the same
 * errors as ever). A job's log says which one answered. Either way the reader adds what the scene's
 * Python does here (scene-python-warnings.ts).
 */
export async function analyzeSceneQuickly(options: QuickAnalysisOptions): Promise<QuickAnalysis> {
  const quick = await analyzeWithReaderOrBlender(options);
  const python = await readScenePythonWarnings(options.scenePath, options.runsScenePython === true);
  return python.length === 0 ? quick : { ...quick, analysis: { ...quick.analysis, warnings: [...quick.analysis.warnings, ...python] } };
}

async function analyzeWithReaderOrBlender(options: QuickAnalysisOptions): Promise<QuickAnalysis> {
  let unsure = 'the node does not know enough of its Blender to read scenes without it';
  if (options.reader && !options.signal?.aborted) {
    const read = await tryReader(options, options.reader);
    if (typeof read !== 'string') {
      options.onLine?.('Scene settings read from the .blend without starting Blender.');
      return read;
    }
    unsure = read;
  }
  options.onLine?.(`Blender analyses the scene: ${unsure}.`);
  return { analysis: await analyzeScene(options), source: 'blender', unsure };
}
