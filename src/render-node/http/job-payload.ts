import type { Job, JobEstimate } from '../../shared/api';
import type { JobRecord, JobsRepo } from '../store';
import type { UrlSigner } from './signing';
import type { Storage } from '../disk';
import { latestFramePreview } from '../frames';

/** Build the signed URL of a file inside a job's folder, issued to the API key `keyId`. */
export function signedJobFileUrl(signer: UrlSigner, base: string, jobId: string, relPath: string, expiresAt: Date, keyId: string): string {
  const path = `/storage/jobs/${jobId}/${relPath.split('/').map(encodeURIComponent).join('/')}`;
  return `${base}${path}?${signer.sign('GET', path, expiresAt, keyId)}`;
}

/**
 * The API form of a job: every required field, `null` for absent optional ones, plus `timeline`
 * (status changes), `progress`, `statusMessage` (why a render waits, or null), `waiting` (the renders
 * ahead of a render that has not started, and in how many seconds it starts; or null), `estimate` (the
 * node's render time of it, when known: before Start from a sample render, while it renders the time
 * left from its frames), and the job's
 * `priority` and `requires` (the worker tags it needs) as extras. `previewUrl` shows the latest frame rendered while the
 * job renders, and the packaged preview (the last frame) once it has one.
 */
export function toApiJob(
  job: JobRecord,
  ctx: { workspaceId: string; signer: UrlSigner; base: string; downloadExpiresAt: Date; jobs: JobsRepo; storage: Storage; keyId: string; statusMessage?: string | null; waiting?: { jobsAhead: number; startsInSeconds: number | null } | null; estimate?: JobEstimate | null },
): Job {
  const preview = job.previewPath ? 'package/preview.png' : job.completedFrames > 0 ? latestFramePreview(ctx.storage, job.id, ctx.jobs.frames(job.id, 'written')) : null;
  return {
    id: job.id,
    status: job.status,
    workspaceId: ctx.workspaceId,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    userId: job.userId,
    rootFolderId: job.rootFolderId,
    normalizedSeconds: job.normalizedSeconds,
    previewUrl: preview ? signedJobFileUrl(ctx.signer, ctx.base, job.id, preview, ctx.downloadExpiresAt, ctx.keyId) : null,
    failedReason: job.failedReason,
    requestedConfig: job.requestedConfig,
    finalConfig: job.finalConfig,
    output: { isDeletedForClient: false },
    isAnalysisSkipped: false,
    analysisId: job.analysisId,
    analysis: job.analysis,
    sceneFile: job.sceneFile,
    progress: { completedFrames: job.completedFrames, totalFrames: job.totalFrames },
    statusMessage: ctx.statusMessage ?? null,
    waiting: ctx.waiting ?? null,
    priority: job.priority,
    requires: job.requires,
    ...(ctx.estimate ? { estimate: ctx.estimate } : {}),
    timeline: ctx.jobs.events(job.id).map((e) => (e.detail?.startsWith('requeued ') ? { status: e.status, at: e.at, detail: e.detail } : { status: e.status, at: e.at })),
  };
}
