import type { Job } from '../../../shared/api';
import { asSentence } from '../../../shared/text';
import type { FrameProgress } from '../../tracking';
import type { StepContext } from '../step-context';

/** Ends the submission when its job failed or was canceled; true when it did. */
export async function endIfJobEnded(ctx: StepContext, job: Job): Promise<boolean> {
  if (job.status === 'failed') {
    const reason = job.failedReason;
    const detail = reason ? `${reason.name} (${reason.type})${reason.message ? `: ${reason.message}` : ''}` : 'no reason given';
    await ctx.save({ ending: 'failed', error: { kind: 'job-failed', message: asSentence(`Job ${job.id} failed: ${detail}`) } });
    return true;
  }
  if (job.status === 'canceled') {
    await ctx.save({ ending: 'canceled' });
    return true;
  }
  return false;
}

/**
 * Waits for the submission's job until `until` holds, reporting what the server says meanwhile;
 * `onProgress` also hears each change of its frame counts.
 */
export function waitForJob(ctx: StepContext, jobId: string, until: (job: Job) => boolean, onProgress?: (progress: FrameProgress) => void): Promise<Job> {
  return ctx.wait(jobId, until, {
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onJob: (job) => ctx.emit('job', { job }),
    onProgress: (progress) => {
      ctx.emit('progress', { jobId, ...progress });
      onProgress?.(progress);
    },
  });
}
