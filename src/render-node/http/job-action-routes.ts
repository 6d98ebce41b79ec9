import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Job, JobSettingsPatch, RenderConfig, SceneAnalysis } from '../../shared/api';
import { isActiveStatus, isTerminalStatus, jobSettingsPatchSchema, requeueRequestSchema } from '../../shared/api';
import { badRequest, HttpError } from '../http-error';
import { admitRender, drawingFor, drawingOf, type NodeCapabilities, pickBlender, planRender, type Renderer, withBlenderWarning } from '../plan';
import { apiJobFor, loadJob } from './api-request';
import { type JobRecord, statusesLeadingTo } from '../store';
import type { NodeContext } from './context';
import { requeueEndedJob } from '../jobs';
import { cancelBody, jobParams, renderBody, validateBody } from './request-schemas';
import type { ZodFastify } from './zod-route';

/** Every status a job may be canceled from, read from the node's state table. */
const CANCELABLE = statusesLeadingTo('canceled');

const REQUEUE_RULE = 'POST /node/jobs/{id}/requeue: send {"frames": ["5", "9-12"]} (frames or ranges of the job) or {"failed": true} (every frame not rendered), nothing else.';

/**
 * Moving a job along: validate it, render it, cancel it; and a Renderdrop node's extensions: change its
 * priority or required tags, render frames of it again.
 */
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
    else await ctx.runner.estimates?.cancel(job.id);
    request.log.info({ jobId: job.id }, 'job canceled');
    return apiJobFor(ctx, request, loadJob(ctx, job.id));
  });

  api.post('/node/jobs/:id/settings', { schema: { params: jobParams, body: jobSettingsPatchSchema } }, async (request) => changeSettings(ctx, request, request.params.id, request.body));

  api.post('/node/jobs/:id/requeue', { schema: { params: jobParams, body: z.unknown() } }, async (request) => {
    const body = requeueRequestSchema.safeParse(request.body);
    if (!body.success) throw badRequest('invalid_request', REQUEUE_RULE);
    const job = loadJob(ctx, request.params.id);
    const deps = { jobs: ctx.jobs, storage: ctx.storage, now: ctx.now, isRunning: (id: string) => ctx.runner.isRunning(id), prepare: (id: string, frames: number[]) => ctx.runner.prepareRequeue(id, frames) };
    const { job: moved, frames } = await requeueEndedJob(deps, job, body.data);
    request.log.info({ jobId: job.id, frames: frames.length }, 'frames requeued');
    ctx.runner.pump();
    return apiJobFor(ctx, request, moved);
  });
}

/**
 * `POST /node/jobs/{id}/settings`: change a job's priority, or the worker tags it requires (kept sorted),
 * while it has not ended (409 `job_ended` after). The node's work is ordered again at once, the chunks
 * of the render still waiting for a worker included.
 */
async function changeSettings(ctx: NodeContext, request: FastifyRequest, id: string, change: JobSettingsPatch): Promise<Job> {
  const patch = { ...(change.priority === undefined ? {} : { priority: change.priority }), ...(change.requires === undefined ? {} : { requires: [...new Set(change.requires)].sort() }) };
  ctx.db.transaction(() => {
    const job = loadJob(ctx, id);
    if (isTerminalStatus(job.status)) {
      throw new HttpError(409, 'job_ended', `Job ${job.id} has ended (${job.status}): its priority and required tags can no longer change. Render it again to change them.`);
    }
    ctx.jobs.patch(job.id, patch);
  })();
  const job = loadJob(ctx, id);
  request.log.info({ jobId: job.id, priority: job.priority, requires: job.requires }, 'job settings changed');
  await ctx.runner.settingsChanged(job);
  return apiJobFor(ctx, request, loadJob(ctx, job.id));
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
  const renderers = await ctx.runner.renderers();
  const picked = config.blenderVersion === undefined ? null : pickedBlender(ctx, config.blenderVersion, job.analysis, renderers);
  const planned = planRender(config, job.analysis, await withVideoEncoders(ctx, config, job.analysis, capabilitiesFor(ctx, job.analysis, renderers, picked)), {
    outputDir: ctx.storage.framesDir(job.id),
    compositeOutputDir: ctx.storage.compositeDir(job.id),
    previewPath: ctx.storage.previewPath(job.id),
    previewDir: ctx.storage.previewsDir(job.id),
  });
  if (!planned.ok) throw badRequest(planned.code, planned.message);
  const admitted = await admitRender(planned, { limits: ctx.limits, headroomBytes: ctx.headroomBytes, diskDir: ctx.storage.jobsDir });
  // The version used is known now when it was asked for, or is the node's own; on render workers the farm's choice is made when the render starts.
  const used = picked ?? (ctx.runner.renderedBy === 'node' ? (renderers?.[0]?.version ?? null) : null);
  const moved = ctx.jobs.transition(job.id, ['validated'], 'booting', {
    requestedConfig: config,
    finalConfig: used === null ? admitted.finalConfig : { ...admitted.finalConfig, blenderVersion: used },
    renderPlan: picked === null ? admitted.plan : { ...admitted.plan, blender: picked },
    ...(picked === null ? {} : { analysis: withBlenderWarning(job.analysis, picked, true) }),
    totalFrames: admitted.plan.frames.length,
    completedFrames: 0,
    queuedAt: ctx.now().toISOString(),
    ...(config.priority === undefined ? {} : { priority: config.priority }),
    ...(config.requires === undefined ? {} : { requires: [...new Set(config.requires)].sort() }),
  });
  if (!moved) {
    const current = loadJob(ctx, job.id);
    if (current.renderPlan !== null) return replay(current);
    throw badRequest('invalid_state', `Job ${job.id} is ${current.status}; a render can only start once it is validated.`);
  }
  ctx.runner.pump();
  return apiJobFor(ctx, request, moved);
}

/**
 * The node's capabilities for a scene's render, EEVEE as the Blenders that would render it can: those
 * of the version `picked`, else of the farm's choice (unchanged when they cannot be listed now).
 */
function capabilitiesFor(ctx: NodeContext, analysis: SceneAnalysis, renderers: Renderer[] | null, picked: string | null): NodeCapabilities {
  if (renderers === null) return ctx.capabilities;
  return { ...ctx.capabilities, eeveeUsable: picked === null ? drawingFor(analysis, renderers) : drawingOf(renderers, picked) };
}

/**
 * The Blender version a render request names (`blenderVersion`), as the node has it: refused (400, in
 * one line naming the versions there are) when the node has no such Blender, only its own when it
 * renders with it, or one older than the scene's; 503 while the render workers cannot be listed.
 */
function pickedBlender(ctx: NodeContext, asked: string, analysis: SceneAnalysis, renderers: Renderer[] | null): string {
  if (renderers === null) {
    throw new HttpError(503, 'blender_versions_unavailable', `The render workers' Blender versions cannot be listed now (Redis is not answering), so Blender ${asked} cannot be checked. Try again shortly, or leave the choice to the farm.`);
  }
  const pick = pickBlender(asked, analysis.savedWithBlender, renderers, ctx.runner.renderedBy);
  if (!pick.ok) throw badRequest('blender_unavailable', pick.message);
  return pick.version;
}

/** The capabilities with the node's video encoders, looked up only when the job may make a video. */
async function withVideoEncoders(ctx: NodeContext, config: RenderConfig, analysis: SceneAnalysis, caps: NodeCapabilities): Promise<NodeCapabilities> {
  const mayMakeVideo = analysis.video || config.videoOutput === true || config.outputMediaType === 'VIDEO';
  if (!mayMakeVideo) return caps;
  return { ...caps, videoEncoders: (await ctx.ffmpeg())?.encoders ?? null };
}
