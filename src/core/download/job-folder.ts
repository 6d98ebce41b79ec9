import { type Job, sceneNameOf } from '../../shared/api';
import { sanitizeSegment } from './safe-path';

/** The default output folder name of a job: `<scene name>-<first 8 of the id>`. */
export function jobFolderName(job: Pick<Job, 'id' | 'sceneFile' | 'analysis'>, sceneName?: string | null): string {
  const name = sceneName ?? sceneNameOf(job) ?? 'job';
  return sanitizeSegment(`${name}-${job.id.replace(/-/g, '').slice(0, 8)}`);
}
