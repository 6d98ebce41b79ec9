import { isTerminalStatus, lastRequeueOf, type Job, type RequeueRequest } from '../../shared/api';
import { selectRequeueFrames } from '../../shared/render';
import { requeueJob, type ApiClient, type CallOptions } from '../api';
import { InvalidStateError, NotFoundError } from '../errors';
import type { SubmissionJournal, SubmissionRecord } from '../journal';
import { expectedFrames } from './expected-frames';
import { listedFrames } from './frame-names';
import { recordFramesAgain, sceneRefusal } from './render-missing';

/**
 * How frames of a job are rendered again: inside the job on a Renderdrop node (`requeued`, with the
 * node's words for what it requeued), or, on a farm without requeue, as a new job of the same scene and
 * settings recorded in the journal (`resend`: run the record like any submission).
 */
export type RequeueOutcome =
  | { kind: 'requeued'; job: Job; said: string }
  | { kind: 'resend'; job: Job; record: SubmissionRecord; frames: number[] };

/** What {@link requeueOrResend} needs. */
export interface RequeueInput {
  client: ApiClient;
  journal: SubmissionJournal;
  jobId: string;
  request: RequeueRequest;
  options?: CallOptions;
}

/**
 * Render frames of a job that ended again: asks the farm to requeue them inside the job, and when the
 * farm has no such thing (404 for the route while the job is there), records today's gap-fill job of
 * exactly those frames instead, from the scene file the job was sent from.
 */
export async function requeueOrResend(o: RequeueInput): Promise<RequeueOutcome> {
  try {
    const job = await requeueJob(o.client, o.jobId, o.request, o.options);
    return { kind: 'requeued', job, said: lastRequeueOf(job) ?? 'requeued' };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  const job = await o.client.getJob(o.jobId, o.options);
  if (!isTerminalStatus(job.status)) {
    throw new InvalidStateError(`Job ${job.id} is still ${job.status}; render frames again once it has finished: wait for it, or cancel it first.`, { code: 'job-active' });
  }
  const planned = expectedFrames(job);
  if (planned === null) throw new InvalidStateError(`The farm does not say which frames job ${job.id} renders, so they cannot be rendered again.`, { code: 'frames-unknown' });
  const rendered = 'failed' in o.request ? new Set(listedFrames(await o.client.getDownloads(job.id, o.options)).keys()) : new Set<number>();
  const selection = selectRequeueFrames(o.request, planned, rendered);
  if (!selection.ok) throw new InvalidStateError(selection.message, { code: selection.code });
  const original = (await o.journal.list()).filter((r) => r.jobId === job.id && r.baseUrl === o.client.baseUrl).at(-1) ?? null;
  const refusal = await sceneRefusal(original);
  if (refusal !== null || original === null) {
    throw new InvalidStateError(`This farm cannot render frames again inside a job, and a new job cannot be sent instead: ${refusal ?? 'the scene file is not known.'}`, { code: 'scene-unavailable' });
  }
  const record = await recordFramesAgain({ journal: o.journal, original, job, frames: selection.frames, folder: null });
  return { kind: 'resend', job, record, frames: selection.frames };
}
