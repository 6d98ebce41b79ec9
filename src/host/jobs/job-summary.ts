import type { PackSummary } from '../../core/packing';
import { type FailedReason, type Job, progressOf, sceneFileNameOf, studioOf, timelineOf, isTerminalStatus } from '../../shared/api';
import type { DownloadState, FailedStep, JobSummary } from '../../shared/contract';
import { framesSeenAfter, renderTimingOf, type FramesSeen, type RenderEstimate } from '../../shared/render';
import { asSentence } from '../../shared/text';
import { blenderErrorLineIn, warningWordsOf } from './job-warnings';

/** A download state with nothing downloaded. */
export const NO_DOWNLOAD: DownloadState = { state: 'none', dir: null, filesDone: 0, filesTotal: 0, bytes: 0, error: null };

const PLAIN_REASONS: Record<string, string> = {
  SceneUnreadable: 'Blender could not open the scene. Open it in Blender, save it again and resubmit.',
  BlenderNotFound: 'The render node has no Blender. Install Blender on it (see Settings > This computer).',
  BlenderCrashed: 'Blender stopped unexpectedly while rendering. Try fewer samples or a smaller resolution.',
  RenderFailed: 'Blender could not render the scene.',
  OutOfMemory: 'The render ran out of memory. Lower the resolution or the samples and try again.',
  NoFrames: 'No frames were left to render. Check the frame range.',
  Timeout: 'The render took longer than allowed.',
};

/** Why a job failed, in plain words a person can act on, said once and ending as a sentence. */
export function describeFailure(reason: FailedReason | null | undefined): string | null {
  if (!reason) return null;
  const said = reason.message?.trim();
  if (said) return asSentence(said.replace(/^(error:\s*)+/i, ''));
  const known = PLAIN_REASONS[reason.name];
  if (known) return known;
  const words = reason.name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `The farm gave this reason: ${words}.`;
}

const RENDER_STAGES = new Set(['booting', 'rendering', 'finalizing']);
const UPLOAD_REASONS = /upload/i;

/**
 * The step a job failed at, as the app names its steps: the upload (the farm never got the files
 * whole), the validation (before rendering began) or the render.
 */
export function failedStepOf(reason: FailedReason | null | undefined, reached: readonly string[]): FailedStep {
  if (reason && (UPLOAD_REASONS.test(reason.type) || UPLOAD_REASONS.test(reason.name))) return 'upload';
  if (reason?.type === 'render' || reached.some((s) => RENDER_STAGES.has(s))) return 'render';
  return 'validation';
}

/** The name a job's row shows: the file submitted from this app, else the server's scene file name, else a short id. */
export function summaryFileName(job: Job, fileName: string | null, previous: JobSummary | null): string {
  return fileName ?? sceneFileNameOf(job) ?? previous?.fileName ?? `job ${job.id.slice(0, 8)}`;
}

const STARTED = new Set(['booting', 'rendering']);

/**
 * What the queue shows of a job; `previous` keeps frame counts and download state the payload lacks.
 * `fileName` (the file the artist submitted from this app) names the job before the server's name for
 * its upload (a scene packed with its files is uploaded as `<scene>.zip`). A frame count above the
 * previous one is noted as seen at `now`.
 */
export function toJobSummary(
  job: Job,
  extra: { fileName?: string | null; previous?: JobSummary | null; download?: DownloadState; canSubmitAgain?: boolean; estimate?: RenderEstimate | null; packing?: PackSummary | null; now?: number },
): JobSummary {
  const timeline = timelineOf(job);
  const previous = extra.previous ?? null;
  const timing = renderTimingOf(job, previous?.renderingSince ?? null, extra.now ?? Date.now());
  const progress = progressOf(job) ?? (previous ? { completedFrames: previous.completedFrames, totalFrames: previous.totalFrames } : null);
  const ended = isTerminalStatus(job.status);
  const totalFrames = progress?.totalFrames ?? 0;
  const completedFrames = job.status === 'completed' ? totalFrames : (progress?.completedFrames ?? 0);
  const hasPreview = typeof job.previewUrl === 'string' && job.previewUrl !== '';
  return {
    id: job.id,
    fileName: summaryFileName(job, extra.fileName ?? null, previous),
    status: job.status,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    startedAt: timeline.find((e) => STARTED.has(e.status))?.at ?? previous?.startedAt ?? (STARTED.has(job.status) ? job.updatedAt : null),
    endedAt: ended ? (timeline.find((e) => isTerminalStatus(e.status))?.at ?? job.updatedAt) : null,
    renderingSince: timing.renderingSince,
    waiting: timing.waiting,
    running: timing.running,
    framesSeen: previous ? framesSeenBy(previous, completedFrames, extra.now ?? Date.now()) : null,
    farmLeft: timing.farmLeft ?? null,
    completedFrames,
    totalFrames,
    normalizedSeconds: job.normalizedSeconds ?? null,
    failure: job.status === 'failed' ? (describeFailure(job.failedReason) ?? 'The farm gave no reason.') : null,
    failedStep: job.status === 'failed' ? failedStepOf(job.failedReason, timeline.map((e) => e.status)) : null,
    download: extra.download ?? previous?.download ?? NO_DOWNLOAD,
    canSubmitAgain: extra.canSubmitAgain ?? previous?.canSubmitAgain ?? false,
    hasPreview,
    previewKey: hasPreview ? `${job.status}:${completedFrames}:${job.updatedAt}` : null,
    warnings: warningWordsOf(job.analysis, extra.packing ?? null, job.status, job.waiting),
    errorLine: job.status === 'completed' ? blenderErrorLineIn(job.analysis, job.status) : null,
    estimate: extra.estimate ?? null,
    ...studioFields(job),
  };
}

/** A Renderdrop node's priority and required tags of a job; nothing from a farm without them. */
function studioFields(job: Job): Pick<JobSummary, 'priority' | 'requires'> {
  const studio = studioOf(job);
  return studio.priority === null && studio.requires.length === 0 ? {} : { priority: studio.priority, requires: studio.requires };
}


function framesSeenBy(previous: JobSummary, completedFrames: number, now: number): FramesSeen | null {
  return framesSeenAfter(previous.framesSeen, previous.completedFrames, completedFrames, now);
}

/** A summary with the frame counts of a progress read; a count above the last one is noted as seen at `now`. */
export function withFrameCounts(summary: JobSummary, counts: { completedFrames: number; totalFrames: number }, now: number): JobSummary {
  return { ...summary, completedFrames: counts.completedFrames, totalFrames: counts.totalFrames, framesSeen: framesSeenBy(summary, counts.completedFrames, now) };
}
