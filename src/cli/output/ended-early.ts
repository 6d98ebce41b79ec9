import { type Job, progressOf } from '../../shared/api';

/**
 * What `download` says about a job that ended before all its frames were rendered: that it failed or
 * was canceled, how many frames it rendered of how many, and how to render the rest. Null for a
 * completed job.
 */
export function endedEarlyNote(job: Job, framesDownloaded: number): string | null {
  if (job.status === 'completed') return null;
  const how = job.status === 'failed' ? 'failed' : job.status === 'canceled' ? 'was canceled' : `ended ${job.status}`;
  const progress = progressOf(job);
  const rendered = progress?.completedFrames ?? framesDownloaded;
  const of = progress && progress.totalFrames > 0 ? ` of ${progress.totalFrames}` : '';
  return `Job ${job.id} ${how} after rendering ${rendered}${of} ${rendered === 1 && !of ? 'frame' : 'frames'}; these are the frames it rendered before it stopped. Render the missing ones with \`renderdrop verify ${job.id} --fix\`.`;
}
