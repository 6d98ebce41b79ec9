import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileTypeOf, isActiveStatus } from '../../shared/api';
import { badRequest, HttpError, notFound } from './http-error';
import { planRender } from '../plan/render-plan';
import { admitRender } from '../plan/render-admission';
import { signedJobFileUrl, toApiJob } from './job-payload';
import type { JobRecord } from '../store/jobs-repo';
import type { NodeContext } from './context';
import type { RequestLimiter } from './rate-limit';
import { buildDownloads, buildJobFrames } from './downloads';
import { guardApi } from './api-guard';
import { zodValidatorCompiler, type ZodTypeProvider } from './zod-route';
import { cancelBody, createJobBody, jobParams, listQuery, renderBody, uploadBody, validateBody } from './request-schemas';
import { registerWorkerRoutes } from './worker-routes';

const CANCELABLE = ['created', 'validating', 'validated', 'booting', 'rendering', 'finalizing', 'debugging', 'suspended'] as const;

/** The key a request was authenticated with (the API guard has run). */
function keyOf(request: FastifyRequest): { id: string; userId: string } {
  if (!request.apiKey) throw new HttpError(401, 'unauthorized', 'Missing API key: send "Authorization: Bearer <key>".');
  return request.apiKey;
}

/**
 * The Render Job External API, under /api/external/v1. Every node key works in the node's one
 * workspace: each key sees and may act on every job (keys say who may use the node, not whose job it is).
 */
export function registerApiRoutes(app: FastifyInstance, ctx: NodeContext, limiter: RequestLimiter): void {
  const apiJob = (request: FastifyRequest, job: JobRecord) =>
    toApiJob(job, {
      workspaceId: ctx.workspaceId,
      signer: ctx.signer,
      base: ctx.baseUrl(request),
      downloadExpiresAt: new Date(ctx.now().getTime() + ctx.downloadUrlTtlMs),
      jobs: ctx.jobs,
      storage: ctx.storage,
      keyId: keyOf(request).id,
    });

  const loadJob = (id: string): JobRecord => {
    const job = ctx.jobs.get(id);
    if (!job) throw notFound(`No job ${id} in this workspace.`);
    return job;
  };

  app.register(
    async (plain) => {
      const api = plain.withTypeProvider<ZodTypeProvider>();
      api.setValidatorCompiler(zodValidatorCompiler);
      guardApi(api, ctx.db, limiter);

      api.post('/uploads', { schema: { body: uploadBody } }, async (request, reply) => {
        const body = request.body;
        if (fileTypeOf(body.fileName) !== body.fileType) {
          throw badRequest('file_type_mismatch', `fileType "${body.fileType}" does not match the extension of "${body.fileName}" (use .blend with "blend", .zip with "zip").`);
        }
        const key = keyOf(request);
        const slug = `u-${randomBytes(16).toString('base64url')}`;
        const now = ctx.now();
        const expiresAt = new Date(now.getTime() + ctx.uploadUrlTtlMs);
        ctx.uploads.create({ slug, fileName: body.fileName, fileType: body.fileType, userId: key.userId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
        const path = `/storage/uploads/${slug}`;
        reply.code(201);
        return { uploadUrl: `${ctx.baseUrl(request)}${path}?${ctx.signer.sign('PUT', path, expiresAt, key.id)}`, slug, expiresAt: expiresAt.toISOString() };
      });

      api.post('/jobs', { schema: { body: createJobBody } }, async (request, reply) => {
        const { slug } = request.body;
        const upload = ctx.uploads.get(slug);
        if (!upload) throw badRequest('unknown_slug', `No upload "${slug}"; request one with POST /uploads.`);
        if (!upload.receivedAt || upload.size === null) {
          throw badRequest('upload_missing', `The file for upload "${slug}" has not arrived; PUT it to its uploadUrl before creating the job.`);
        }
        const size = upload.size;
        const job = ctx.db.transaction(() => {
          const again = ctx.uploads.get(slug);
          if (again?.jobId) {
            throw new HttpError(409, 'slug_used', `Upload "${slug}" was already used by job ${again.jobId}.`, {}, { jobId: again.jobId });
          }
          const created = ctx.jobs.create({
            userId: keyOf(request).userId,
            uploadSlug: slug,
            sceneFile: { fileName: upload.fileName, fileType: upload.fileType, size, slug, scenePath: null },
          });
          ctx.uploads.claim(slug, created.id);
          return created;
        })();
        request.log.info({ jobId: job.id }, 'job created');
        reply.code(201);
        return apiJob(request, job);
      });

      api.get('/jobs', { schema: { querystring: listQuery } }, async (request) => {
        const { page, pageSize, status } = request.query;
        const { jobs, total } = ctx.jobs.list(page, pageSize, status);
        return { jobs: jobs.map((j) => apiJob(request, j)), pagination: { page, pageSize, total, totalPages: Math.ceil(total / pageSize) } };
      });

      api.get('/jobs/progress', async () =>
        ctx.jobs
          .inStatus(['validating', 'booting', 'rendering', 'finalizing'])
          .map((j) => ({ jobId: j.id, completedFrames: j.completedFrames, totalFrames: j.totalFrames })),
      );

      api.get('/jobs/:id', { schema: { params: jobParams } }, async (request) => ({ data: apiJob(request, loadJob(request.params.id)) }));

      api.get('/jobs/:id/progress', { schema: { params: jobParams } }, async (request) => {
        const job = loadJob(request.params.id);
        return { jobId: job.id, completedFrames: job.completedFrames, totalFrames: job.totalFrames };
      });

      api.post('/jobs/:id/validate', { schema: { params: jobParams, body: validateBody } }, async (request) => {
        const job = loadJob(request.params.id);
        if (job.status !== 'created') {
          throw badRequest('invalid_state', `Job ${job.id} is ${job.status}; validation can only start from created.`);
        }
        const moved = ctx.jobs.transition(job.id, ['created'], 'validating', { validateConfig: request.body, queuedAt: ctx.now().toISOString() });
        if (!moved) throw badRequest('invalid_state', `Job ${job.id} changed status; validation can only start from created.`);
        ctx.runner.pump();
        return apiJob(request, moved);
      });

      api.post('/jobs/:id/render', { schema: { params: jobParams, body: renderBody } }, async (request, reply) => {
        const job = loadJob(request.params.id);
        const config = request.body.requestedRenderConfig;
        const replay = (current: JobRecord) => {
          reply.header('X-Idempotent-Replay', 'true');
          return apiJob(request, current);
        };
        if (job.renderPlan !== null) return replay(job);
        if (job.status !== 'validated' || job.analysis === null) {
          throw badRequest('invalid_state', `Job ${job.id} is ${job.status}; a render can only start once it is validated.`);
        }
        const planned = planRender(config, job.analysis, ctx.capabilities, {
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
          const current = loadJob(job.id);
          if (current.renderPlan !== null) return replay(current);
          throw badRequest('invalid_state', `Job ${job.id} is ${current.status}; a render can only start once it is validated.`);
        }
        ctx.runner.pump();
        return apiJob(request, moved);
      });

      api.post('/jobs/:id/cancel', { schema: { params: jobParams, body: cancelBody } }, async (request) => {
        const job = loadJob(request.params.id);
        const moved = ctx.jobs.transition(job.id, CANCELABLE, 'canceled', {}, 'canceled by request');
        if (!moved) {
          throw badRequest('invalid_state', `Job ${job.id} is already ${loadJob(job.id).status}; only unfinished jobs can be canceled.`);
        }
        if (isActiveStatus(job.status)) await ctx.runner.abort(job.id);
        request.log.info({ jobId: job.id }, 'job canceled');
        return apiJob(request, loadJob(job.id));
      });

      api.get('/jobs/:id/downloads', { schema: { params: jobParams } }, async (request) => {
        const job = loadJob(request.params.id);
        const expiresAt = new Date(ctx.now().getTime() + ctx.downloadUrlTtlMs);
        const base = ctx.baseUrl(request);
        const keyId = keyOf(request).id;
        return buildDownloads(job, ctx, (rel) => signedJobFileUrl(ctx.signer, base, job.id, rel, expiresAt, keyId));
      });

      api.get('/node/jobs/:id/frames', { schema: { params: jobParams } }, async (request) => {
        const job = loadJob(request.params.id);
        const expiresAt = new Date(ctx.now().getTime() + ctx.downloadUrlTtlMs);
        const base = ctx.baseUrl(request);
        const keyId = keyOf(request).id;
        return buildJobFrames(job, ctx, (rel) => signedJobFileUrl(ctx.signer, base, job.id, rel, expiresAt, keyId));
      });

      registerWorkerRoutes(api, ctx);
    },
    { prefix: '/api/external/v1' },
  );
}
