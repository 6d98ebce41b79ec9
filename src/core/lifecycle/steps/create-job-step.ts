import type { Job } from '../../../shared/api';
import { sameServer } from '../../../shared/settings';
import { AbortError, InvalidStateError, NetworkError, RenderdropError } from '../../errors';
import { findCreatedJob } from './find-created-job';
import { requireSlug } from './require-fields';
import { sentFile } from './sent-file';
import type { StepContext } from '../step-context';

/** `uploaded` -> `creating-job` (the intent, recorded first) -> `job-created`. */
export async function createJobStep(ctx: StepContext): Promise<void> {
  await ctx.save({ step: 'creating-job', jobIntentAt: ctx.now() });
  await createJob(ctx);
}

/**
 * `creating-job` after an interruption: the job may exist without its answer having arrived. Looks
 * for it among the newest jobs (never adopting one another submission owns or may own), continues
 * with it when found, creates it when certainly absent, and ends the submission naming the candidates
 * when it cannot tell.
 */
export async function recoverJobStep(ctx: StepContext): Promise<void> {
  const record = ctx.record();
  const others = (await ctx.journal.list()).filter((r) => r.id !== record.id);
  const ownedElsewhere = new Set(others.flatMap((r) => (r.jobId ? [r.jobId] : [])));
  const fileName = sentFile(record).name;
  const rivalMayOwn = others.some((r) => r.jobId === null && r.step === 'creating-job' && sentFile(r).name === fileName && sameServer(r.baseUrl, record.baseUrl));
  const search = await findCreatedJob(
    ctx.client,
    { slug: requireSlug(record), fileName, intentAt: record.jobIntentAt ?? record.updatedAt, ownedElsewhere, rivalMayOwn },
    ctx.call,
  );
  if (search.kind === 'none') {
    await createJob(ctx);
    return;
  }
  if (search.kind === 'ambiguous') {
    const ids = search.jobs.map((j) => j.id);
    const which = ids.length === 1 ? `job ${ids[0]} was` : `jobs ${ids.join(', ')} were`;
    const message =
      `Creating the job for ${record.file.name} was interrupted, and ${which} made from a file of that name around then; ` +
      `${ids.length === 1 ? 'it' : 'one of them'} may be this submission's or another's. Renderdrop stopped rather than guess. ` +
      'Check them in the job list, cancel what nobody needs, and submit the file again.';
    await ctx.save({ ending: 'failed', error: { kind: 'job-recovery-ambiguous', message } });
    return;
  }
  const how = search.by === 'slug' ? 'created before the interruption' : 'made from this file around the time of the interruption';
  ctx.emit('notice', { message: `Found job ${search.job.id} ${how}; continuing with it.` });
  ctx.emit('job', { job: search.job });
  await ctx.save({ step: 'job-created', jobId: search.job.id });
}

/**
 * POST /jobs for the recorded slug. When the request certainly created nothing (aborted before it
 * was sent, never reached the server, or refused with a 4xx) the record goes back to `uploaded`, so
 * the next run creates the job directly instead of searching for one.
 */
async function createJob(ctx: StepContext): Promise<void> {
  const slug = requireSlug(ctx.record());
  if (ctx.signal?.aborted) {
    await ctx.save({ step: 'uploaded', jobIntentAt: null });
    throw new AbortError();
  }
  let job: Job;
  try {
    job = await ctx.client.createJob(slug, ctx.call);
  } catch (error) {
    if (error instanceof InvalidStateError && error.existingJobId) {
      job = await ctx.client.getJob(error.existingJobId, ctx.call);
      ctx.emit('notice', { message: `The server already had job ${job.id} for this upload; continuing with it.` });
    } else {
      if (createdNothing(error)) await ctx.save({ step: 'uploaded', jobIntentAt: null });
      throw error;
    }
  }
  ctx.emit('job', { job });
  await ctx.save({ step: 'job-created', jobId: job.id });
}

/** Whether a failed POST /jobs certainly created no job. */
function createdNothing(error: unknown): boolean {
  if (error instanceof NetworkError) return !error.maybeApplied;
  return error instanceof RenderdropError && error.status !== undefined && error.status >= 400 && error.status < 500;
}
