import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequeueRequest } from '../../shared/api';
import { requeueDetail, selectRequeueFrames } from '../../shared/render';
import { HttpError } from '../http-error';
import type { Storage } from '../disk';
import { framePreviewName } from '../frames';
import { type JobRecord, type JobsRepo, REQUEUE_STATUSES } from '../store';

/** What a requeue needs from the node. */
export interface RequeueDeps {
  jobs: JobsRepo;
  storage: Storage;
  now: () => Date;
  /** Whether the runner still has work going on for the job (a cancel still stopping). */
  isRunning: (jobId: string) => boolean;
  /** Get the executor ready to render `frames` of the job again (distributed: queue their chunks anew). */
  prepare: (jobId: string, frames: number[]) => Promise<void>;
}

const conflict = (code: string, message: string) => new HttpError(409, code, message);
const requeuing = new Set<string>();

/** Why a job in this status cannot have frames rendered again, in one sentence. */
function statusRefusal(job: JobRecord): HttpError {
  switch (job.status) {
    case 'booting':
    case 'rendering':
    case 'finalizing':
      return conflict('job_active', `Job ${job.id} is still rendering; render frames again once it has finished: wait for it, or cancel it first.`);
    default:
      return conflict('invalid_state', `Job ${job.id} is ${job.status}; frames can be rendered again only once its render has completed, failed or been canceled.`);
  }
}

/**
 * Render frames of a job that ended (completed, failed or canceled) again inside the same job, keeping
 * every other frame: those frames' records, files and previews go, the packaged outputs (frames zip,
 * preview, video) are dropped so that finalizing builds them again, the failure is cleared, and the job
 * goes back into the render queue with the requeue in its history. The caller pumps the runner.
 */
export async function requeueEndedJob(deps: RequeueDeps, job: JobRecord, request: RequeueRequest): Promise<{ job: JobRecord; frames: number[] }> {
  if (!(REQUEUE_STATUSES as readonly string[]).includes(job.status)) throw statusRefusal(job);
  const plan = job.renderPlan;
  if (plan === null) {
    throw conflict('never_rendered', `Job ${job.id} was ${job.status} before it rendered, so it has no frames to render again. Send the scene again.`);
  }
  if (deps.isRunning(job.id) || requeuing.has(job.id)) {
    throw new HttpError(409, 'job_busy', `Job ${job.id} is still stopping or being requeued; try again in a few seconds.`, { 'Retry-After': '2' });
  }
  const recorded = deps.jobs.frames(job.id);
  const selection = selectRequeueFrames(request, plan.frames, new Set(recorded.map((f) => f.frame)));
  if (!selection.ok) throw new HttpError(selection.status, selection.code, selection.message);
  const frames = selection.frames;
  requeuing.add(job.id);
  try {
    await deps.prepare(job.id, frames);
    const again = new Set(frames);
    for (const f of recorded.filter((r) => again.has(r.frame))) {
      await rm(f.filePath, { force: true });
      await rm(join(deps.storage.previewsDir(job.id), framePreviewName(f.filePath)), { force: true });
    }
    await rm(deps.storage.packageDir(job.id), { recursive: true, force: true });
    const moved = deps.jobs.requeue(
      job.id,
      REQUEUE_STATUSES,
      'booting',
      frames,
      { failedReason: null, completedAt: null, previewPath: null, normalizedSeconds: null, pid: null, queuedAt: deps.now().toISOString() },
      requeueDetail(frames),
    );
    if (moved === null) throw statusRefusal(deps.jobs.get(job.id) ?? job);
    return { job: moved, frames };
  } finally {
    requeuing.delete(job.id);
  }
}
