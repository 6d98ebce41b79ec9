import type { JobSummary } from '../../shared/contract';
import { countOf } from '../../shared/text';
import { confirmFirst, type ConfirmRequest, useConfirmStore, useNotificationsStore, useQueueStore } from '../stores';
import { command } from './command';

/** What canceling this job loses, asked before it is canceled. */
export function cancelQuestion(job: Pick<JobSummary, 'fileName' | 'completedFrames' | 'totalFrames' | 'status'>): ConfirmRequest {
  const left = Math.max(0, job.totalFrames - job.completedFrames);
  const started = job.status === 'rendering' || job.status === 'booting' || job.status === 'finalizing';
  const lost = !started
    ? `${job.fileName} will not be rendered.`
    : job.completedFrames > 0
      ? `The render of ${job.fileName} stops: ${countOf(job.completedFrames, 'frame')} done so far stay, the ${countOf(left, 'frame')} left are not rendered, and the frame in progress is lost.`
      : `The render of ${job.fileName} stops and the frame in progress is lost.`;
  return { title: `Cancel the render of ${job.fileName}?`, message: `${lost} This cannot be undone.`, confirm: 'Cancel render', keep: 'Keep rendering' };
}

/**
 * Cancels a job once the artist confirmed what is lost. The question follows the job while it is
 * open, so the frames it counts are those the row shows.
 */
export async function cancelJob(job: JobSummary): Promise<void> {
  const question = cancelQuestion(useQueueStore.getState().byId.get(job.id) ?? job);
  const follow = useQueueStore.subscribe((queue) => {
    const latest = queue.byId.get(job.id);
    const open = useConfirmStore.getState().open;
    if (!latest || open?.title !== question.title) return;
    const now = cancelQuestion(latest);
    if (now.message !== open.message) useConfirmStore.setState({ open: { ...open, ...now } });
  });
  try {
    if (!(await confirmFirst(question))) return;
  } finally {
    follow();
  }
  await command('jobs.cancel', { jobId: job.id }, { what: `cancel ${job.fileName}` });
}

/**
 * "Submit again": sends the job's scene again and opens its review with the job's settings once the
 * farm has read it; nothing renders before the artist starts it there.
 */
export async function submitAgain(job: JobSummary): Promise<void> {
  const result = await command('jobs.submitAgain', { jobId: job.id }, { what: `submit ${job.fileName} again` });
  if (result && !result.ok) {
    const at = new Date();
    useNotificationsStore.getState().push({ id: `submit-again-${at.getTime()}`, level: 'error', title: `Could not submit ${job.fileName} again`, message: result.error.message, jobId: job.id, at: at.toISOString() });
  }
}

/**
 * "Render again" for frames picked in the frame strip, or "Retry failed frames" (`failed`): renders them
 * again inside the job, or on a farm that cannot, as a new job of those frames; says which happened.
 * Resolves whether they were sent.
 */
export async function renderFramesAgain(job: Pick<JobSummary, 'id' | 'fileName'>, pick: { frames: number[] } | { failed: true }): Promise<boolean> {
  const what = 'failed' in pick ? `render the failed frames of ${job.fileName} again` : `render frames of ${job.fileName} again`;
  const result = await command('jobs.requeue', { jobId: job.id, ...pick }, { what });
  if (!result) return false;
  const at = new Date();
  const tell = (level: 'info' | 'error', title: string, message: string) =>
    useNotificationsStore.getState().push({ id: `requeue-${job.id}-${at.getTime()}`, level, title, message, jobId: job.id, at: at.toISOString() });
  const frames = `${/[-,]/.test(result.frames) ? 'Frames' : 'Frame'} ${result.frames}`;
  if (result.inJob) {
    tell('info', `Rendering ${frames.toLowerCase()} of ${job.fileName} again`, 'The other frames stay as they are; the job completes again once these are rendered.');
    return true;
  }
  if (!result.sent.ok) {
    tell('error', `Could not ${what}`, result.sent.error.message);
    return false;
  }
  tell('info', `${frames} of ${job.fileName} sent as a new job`, 'This farm cannot render frames again inside a job, so they render as a new job of the same scene and settings.');
  return true;
}
