import { isPastValidation, needsReview } from '../../../shared/api';
import { InvalidStateError } from '../../errors';
import { endIfJobEnded, waitForJob } from './job-ending';
import { requireJobId } from './require-fields';
import type { StepContext } from '../step-context';

/** `job-created` -> `validate-requested` (recorded before the request) and the request itself. */
export async function requestValidationStep(ctx: StepContext): Promise<void> {
  await ctx.save({ step: 'validate-requested' });
  await requestValidation(ctx);
}

/**
 * `validate-requested` -> `validated` (or `render-requested` when the job went further, or an
 * ending): asks again when the request never arrived, then waits for validation to end.
 */
export async function awaitValidationStep(ctx: StepContext): Promise<void> {
  const jobId = requireJobId(ctx.record());
  const current = await ctx.client.getJob(jobId, ctx.call);
  if (current.status === 'created') await requestValidation(ctx);
  const job = await waitForJob(ctx, jobId, (j) => isPastValidation(j.status));
  if (await endIfJobEnded(ctx, job)) return;
  await ctx.save({ step: needsReview(job.status) ? 'validated' : 'render-requested' });
}

/** POST validate; a refusal because the job is no longer `created` means it already arrived. */
async function requestValidation(ctx: StepContext): Promise<void> {
  const record = ctx.record();
  const jobId = requireJobId(record);
  try {
    const job = await ctx.client.validateJob(jobId, record.validateBody ?? {}, ctx.call);
    ctx.emit('job', { job });
  } catch (error) {
    if (!(error instanceof InvalidStateError)) throw error;
    const job = await ctx.client.getJob(jobId, ctx.call);
    if (job.status === 'created') throw error;
  }
}
