import { isTerminalStatus, type Job, needsReview } from '../../../shared/api';
import { RenderRefusedError } from '../../errors';
import { recordedRenderConfig } from '../../journal';
import { endIfJobEnded, waitForJob } from './job-ending';
import { followFrames } from './follow-frames';
import { renderConfigFor, renderConfigProblem } from '../render-review';
import { requireJobId } from './require-fields';
import type { StepContext } from '../step-context';

/**
 * `validated` -> `render-requested`: passing this state is the go-ahead. Checks the job is still
 * waiting (an ended job ends the submission; one already rendering moves on), refuses settings the
 * scene cannot do before anything is sent, records the settings with the step, then asks to render.
 */
export async function requestRenderStep(ctx: StepContext): Promise<void> {
  const jobId = requireJobId(ctx.record());
  const job = await ctx.client.getJob(jobId, ctx.call);
  if (await endIfJobEnded(ctx, job)) return;
  if (!needsReview(job.status)) {
    await ctx.save({ step: 'render-requested' });
    return;
  }
  const config = renderConfigFor(ctx.record(), ctx.renderConfig);
  const problem = renderConfigProblem(job.analysis ?? null, config);
  if (problem) throw new RenderRefusedError(problem);
  await ctx.save({ step: 'render-requested', renderConfig: config });
  const result = await ctx.client.renderJob(jobId, config, ctx.call);
  ctx.emit('job', { job: result.job });
}

/**
 * `render-requested` -> `completed` (or an ending): repeats the render request when it never
 * arrived (it is idempotent), then waits for the job to end, bringing its frames into the output
 * folder as they are rendered when the submission wants its outputs.
 */
export async function awaitRenderStep(ctx: StepContext): Promise<void> {
  const jobId = requireJobId(ctx.record());
  const current = await ctx.client.getJob(jobId, ctx.call);
  if (needsReview(current.status)) {
    const config = recordedRenderConfig(ctx.record()) ?? renderConfigFor(ctx.record(), ctx.renderConfig);
    const result = await ctx.client.renderJob(jobId, config, ctx.call);
    ctx.emit('job', { job: result.job });
  }
  const follow = await followFrames(ctx, jobId);
  let job: Job;
  try {
    job = await waitForJob(ctx, jobId, (j) => isTerminalStatus(j.status), (progress) => {
      if (progress.completedFrames > 0) follow?.poke();
    });
  } finally {
    await follow?.settle();
  }
  if (await endIfJobEnded(ctx, job)) return;
  await ctx.save({ step: 'completed' });
}
