import type { Job } from '../../shared/api/job';
import { sanitizeSegment } from './safe-path';

/**
 * The scene name of a job, read defensively from `sceneFile` (fileName, name, originalName or path)
 * or the analysis' scene, without extension; null when the server says nothing usable.
 */
export function sceneNameOf(job: Pick<Job, 'sceneFile' | 'analysis'>): string | null {
  const scene = job.sceneFile;
  if (scene !== null && typeof scene === 'object') {
    const record = scene as Record<string, unknown>;
    for (const key of ['fileName', 'name', 'originalName', 'path']) {
      const value = record[key];
      if (typeof value === 'string' && value.trim() !== '') return stripExtension(value.replace(/\\/g, '/').split('/').pop()!);
    }
  }
  if (typeof scene === 'string' && scene.trim() !== '') return stripExtension(scene.split('/').pop()!);
  const analysis = job.analysis as { scene?: unknown } | null | undefined;
  if (analysis && typeof analysis.scene === 'string' && analysis.scene !== '') return analysis.scene;
  return null;
}

/** The default output folder name of a job: `<scene name>-<first 8 of the id>`. */
export function jobFolderName(job: Pick<Job, 'id' | 'sceneFile' | 'analysis'>, sceneName?: string | null): string {
  const name = sceneName ?? sceneNameOf(job) ?? 'job';
  return sanitizeSegment(`${name}-${job.id.replace(/-/g, '').slice(0, 8)}`);
}

function stripExtension(name: string): string {
  return name.replace(/\.(blend\d*|zip)$/i, '') || name;
}
