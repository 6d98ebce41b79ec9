import { type Job, analysisSceneOf, sceneFileNameOf } from '../../shared/api';
import { sanitizeSegment } from './safe-path';

/**
 * The scene name of a job, read defensively from `sceneFile` (fileName, name, originalName or path)
 * or the analysis' scene, without extension; null when the server says nothing usable.
 */
export function sceneNameOf(job: Pick<Job, 'sceneFile' | 'analysis'>): string | null {
  const fileName = sceneFileNameOf(job);
  return fileName !== null ? stripExtension(fileName) : analysisSceneOf(job);
}

/** The default output folder name of a job: `<scene name>-<first 8 of the id>`. */
export function jobFolderName(job: Pick<Job, 'id' | 'sceneFile' | 'analysis'>, sceneName?: string | null): string {
  const name = sceneName ?? sceneNameOf(job) ?? 'job';
  return sanitizeSegment(`${name}-${job.id.replace(/-/g, '').slice(0, 8)}`);
}

function stripExtension(name: string): string {
  return name.replace(/\.(blend\d*|zip)$/i, '') || name;
}
