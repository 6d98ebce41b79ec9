import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Job, RenderConfig, SceneAnalysis } from '../../shared/api';
import { isActiveStatus } from '../../shared/api';
import { badRequest } from './http-error';
import { planRender } from '../plan/render-plan';
import { admitRender } from '../plan/render-admission';
import { drawingFor } from '../plan/blender-choice';
import type { NodeCapabilities } from '../plan/node-capabilities';
import { apiJobFor, loadJob } from './api-request';
import type { JobRecord } from '../store/jobs-repo';
import { statusesLeadingTo } from '../jobs/job-states';
import type { NodeContext } from './context';
import { cancelBody, jobParams, renderBody, validateBody } from './request-schemas';
import type { ZodFastify } from './zod-route';

/** Every status a job may be canceled from, read from the node's state table. */
const CANCELABLE = statusesLeadingTo('canceled');

/** Moving a job along: validate it, render it, cancel it. */
export function registerJobActionRoutes(api: ZodFastify, ctx: NodeContext): void {
  api.post('/jobs/:id/validate', { schema: { params: jobParams, body: validateBody } }, async (request) => {
    const job = loadJob(ctx, request.params.id);
    if (job.status !== 'created') {
      throw badRequest('invalid_state', `Job ${job.id} is ${job.status}; validation can only start from created.`);
    }
    const moved = ctx.jobs.transition(job.id, ['created'], 'validating', { validateConfig: request.body, queuedAt: ctx.now().toISOString() });
    if (!moved) throw badRequest('invalid_state', `Job ${job.id} changed status; validation can only start from created.`);
    ctx.runner.pump();
    return apiJobFor(ctx, request, moved);
  });

  api.post('/jobs/:id/render', { schema: { params: jobParams, body: renderBody } }, async (request, reply) =>
    queueRender(ctx, request, reply, loadJob(ctx, request.params.id), request.body.requestedRenderConfig),
  );

  api.post('/jobs/:id/cancel', { schema: { params: jobParams, body: cancelBody } }, async (request) => {
    const job = loadJob(ctx, request.params.id);
    const moved = ctx.jobs.transition(job.id, CANCELABLE, 'canceled', {}, 'canceled by request');
    if (!moved) {
      throw badRequest('invalid_state', `Job ${job.id} is already ${loadJob(ctx, job.id).status}; only unfinished jobs can be canceled.`);
    }
    if (isActiveStatus(job.status)) await ctx.runner.abort(job.id);
    request.log.info({ jobId: job.id }, 'job canceled');
    return apiJobFor(ctx, request, loadJob(ctx, job.id));
  });
}

/**
 * Plan a validated job's render, hold it to the node's limits and queue it. A job that already has a
 * plan is returned as it is, marked as a replay (`X-Idempotent-Replay`).
 */
async function queueRender(ctx: NodeContext, request: FastifyRequest, reply: FastifyReply, job: JobRecord, config: RenderConfig): Promise<Job> {
  const replay = (current: JobRecord) => {
    reply.header('X-Idempotent-Replay', 'true');
    return apiJobFor(ctx, request, current);
  };
  if (job.renderPlan !== null) return replay(job);
  if (job.status !== 'validated' || job.analysis === null) {
    throw badRequest('invalid_state', `Job ${job.id} is ${job.status}; a render can only start once it is validated.`);
  }
  const planned = planRender(config, job.analysis, await withVideoEncoders(ctx, config, job.analysis, await capabilitiesFor(ctx, job.analysis)), {
    outputDir: ctx.storage.framesDir(job.id),
    compositeOutputDir: ctx.storage.compositeDir(job.id),
    previewPath: ctx.storage.previewPath(job.id),
    previewDir: ctx.storage.previewsDir(job.id),
  });
  if (!planned.ok) throw badRequest(planned.code, planned.message);
  const admitted = await admitRender(planned, { limits: ctx.limits, headroomBytes: ctx.headroomBytes, diskDir: ctx.storage.jobsDir });
  const moved = ctx.jobs.transition(job.id, ['validated'], 'booting', {
    requestedConfig: config,
    finalConfig: admitted.finalConfig,
    renderPlan: admitted.plan,
    totalFrames: admitted.plan.frames.length,
    completedFrames: 0,
    queuedAt: ctx.now().toISOString(),
  });
  if (!moved) {
    const current = loadJob(ctx, job.id);
    if (current.renderPlan !== null) return replay(current);
    throw badRequest('invalid_state', `Job ${job.id} is ${current.status}; a render can only start once it is validated.`);
  }
  ctx.runner.pump();
  return apiJobFor(ctx, request, moved);
}

/** The node's capabilities for a scene's render, EEVEE as the Blenders that would render it can (unchanged when they cannot be listed now). */
async function capabilitiesFor(ctx: NodeContext, analysis: SceneAnalysis): Promise<NodeCapabilities> {
  const renderers = await ctx.runner.renderers();
  return renderers === null ? ctx.capabilities : { ...ctx.capabilities, eeveeUsable: drawingFor(analysis, renderers) };
}

/** The capabilities with the node's video encoders, looked up only when the job may make a video. */
async function withVideoEncoders(ctx: NodeContext, config: RenderConfig, analysis: SceneAnalysis, caps: NodeCapabilities): Promise<NodeCapabilities> {
  const mayMakeVideo = analysis.video || config.videoOutput === true || config.outputMediaType === 'VIDEO';
  if (!mayMakeVideo) return caps;
  return { ...caps, videoEncoders: (await ctx.ffmpeg())?.encoders ?? null };
}
