import { serializeError } from '../../core/errors';
import type { ContractHandlers } from '../../shared/contract';
import { clockSummaryOf } from '../../shared/render';
import type { HandedOverProgress } from './handover-listener';

/**
 * How a submission handed over by the Blender add-on is doing, read through the app's own calls: its
 * phase until it is a job, then the job's status, frames, render clock (the queue's rule), whether a
 * preview of the last frame exists, and the folder its frames were downloaded to. `jobs` remembers the
 * job of each submission, so the add-on can follow it after the submission leaves the list.
 */
export function handedOverProgress(handlers: Pick<ContractHandlers, 'submissions.list' | 'jobs.get' | 'jobs.preview'>, jobs = new Map<string, string>()) {
  return async (submissionId: string, seenPreview: string | null = null): Promise<HandedOverProgress | null> => {
    const submission = (await handlers['submissions.list']({})).find((s) => s.id === submissionId) ?? null;
    if (submission?.jobId) jobs.set(submissionId, submission.jobId);
    const jobId = jobs.get(submissionId) ?? null;
    if (!jobId) {
      if (!submission) return null;
      return { submissionId, phase: submission.phase, jobId: null, error: submission.error ? serializeError(submission.error).message : null };
    }
    const { summary } = await handlers['jobs.get']({ jobId });
    const clock = clockSummaryOf({ ...summary, endedAt: summary.endedAt }, Date.now());
    const preview =
      summary.hasPreview && summary.previewKey !== seenPreview
        ? await Promise.resolve()
            .then(() => handlers['jobs.preview']({ jobId }))
            .catch(() => null)
        : null;
    return {
      submissionId,
      phase: submission?.phase ?? 'job',
      jobId,
      status: summary.status,
      completedFrames: summary.completedFrames,
      totalFrames: summary.totalFrames,
      clock,
      hasPreview: summary.hasPreview,
      previewKey: summary.previewKey,
      ...(preview ? { preview } : {}),
      failure: summary.failure,
      framesDir: summary.download.state === 'done' ? summary.download.dir : null,
      download: summary.download.state,
    };
  };
}
