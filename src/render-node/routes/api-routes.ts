import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  createJobRequestSchema,
  fileTypeOf,
  isActiveStatus,
  jobStatusSchema,
  renderConfigSchema,
  uploadRequestSchema,
  validateRequestSchema,
  type SceneAnalysis,
} from '../../shared/api';
import { verifyKey } from '../keys';
import { badRequest, HttpError, notFound } from '../http-error';
import { planRender } from '../render-plan';
import { signedJobFileUrl, toApiJob } from '../job-payload';
import type { JobRecord } from '../jobs-repo';
import type { NodeContext } from '../context';
import { buildDownloads } from './downloads';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parse a body with a schema, turning problems into one readable 400. */
function parseBody<T extends z.ZodType>(schema: T, body: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? issue.path.join('.') : 'body';
  throw badRequest('invalid_request', `${what}: ${where}: ${issue.message}`);
}

function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1]! : null;
}

/** The Render Job External API, under /api/external/v1. */
export function registerApiRoutes(app: FastifyInstance, ctx: NodeContext): void {
  const jobContext = (request: FastifyRequest) => ({
    workspaceId: ctx.workspaceId,
    signer: ctx.signer,
    base: ctx.baseUrl(request),
    downloadExpiresAt: new Date(ctx.now().getTime() + ctx.downloadUrlTtlMs),
    jobs: ctx.jobs,
  });
  const apiJob = (request: FastifyRequest, job: JobRecord) => toApiJob(job, jobContext(request));

  const loadJob = (id: string): JobRecord => {
    if (!UUID.test(id)) throw badRequest('invalid_id', `"${id}" is not a job id (a UUID).`);
    const job = ctx.jobs.get(id);
    if (!job) throw notFound(`No job ${id} in this workspace.`);
    return job;
  };

  app.register(
    async (api) => {
      api.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        const token = bearer(request);
        const key = token ? verifyKey(ctx.db, token) : null;
        if (!key) {
          reply.header('WWW-Authenticate', token ? 'Bearer realm="renderdrop", error="invalid_token"' : 'Bearer realm="renderdrop"');
          throw new HttpError(401, 'unauthorized', token ? 'The API key is not valid (unknown or revoked).' : 'Missing API key: send "Authorization: Bearer <key>".');
        }
        const verdict = ctx.limiter.take(key.id);
        if (!verdict.allowed) {
          throw new HttpError(429, 'rate_limited', `Too many requests; retry in ${verdict.retryAfterSeconds} s.`, {
            'Retry-After': String(verdict.retryAfterSeconds),
          });
        }
        reply.header('X-RateLimit-Limit', String(ctx.limiter.limit));
        reply.header('X-RateLimit-Remaining', String(verdict.remaining));
        request.apiKey = key;
      });

      api.post('/uploads', async (request, reply) => {
        const body = parseBody(uploadRequestSchema, request.body, 'POST /uploads');
        if (fileTypeOf(body.fileName) !== body.fileType) {
          throw badRequest('file_type_mismatch', `fileType "${body.fileType}" does not match the extension of "${body.fileName}" (use .blend with "blend", .zip with "zip").`);
        }
        const slug = `u-${randomBytes(16).toString('base64url')}`;
        const now = ctx.now();
        const expiresAt = new Date(now.getTime() + ctx.uploadUrlTtlMs);
        ctx.uploads.create({ slug, fileName: body.fileName, fileType: body.fileType, userId: request.apiKey!.userId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
        const path = `/storage/uploads/${slug}`;
        reply.code(201);
        return { uploadUrl: `${ctx.baseUrl(request)}${path}?${ctx.signer.sign('PUT', path, expiresAt)}`, slug, expiresAt: expiresAt.toISOString() };
      });

      api.post('/jobs', async (request, reply) => {
        const { slug } = parseBody(createJobRequestSchema, request.body, 'POST /jobs');
        const upload = ctx.uploads.get(slug);
        if (!upload) throw badRequest('unknown_slug', `No upload "${slug}"; request one with POST /uploads.`);
        if (!upload.receivedAt || upload.size === null) {
          throw badRequest('upload_missing', `The file for upload "${slug}" has not arrived; PUT it to its uploadUrl before creating the job.`);
        }
        const job = ctx.db.transaction(() => {
          const again = ctx.uploads.get(slug)!;
          if (again.jobId) {
            throw new HttpError(409, 'slug_used', `Upload "${slug}" was already used by job ${again.jobId}.`, {}, { jobId: again.jobId });
          }
          const created = ctx.jobs.create({
            userId: request.apiKey!.userId,
            uploadSlug: slug,
            sceneFile: { fileName: upload.fileName, fileType: upload.fileType, size: upload.size!, slug, scenePath: null },
          });
          ctx.uploads.claim(slug, created.id);
          return created;
        })();
        request.log.info({ jobId: job.id }, 'job created');
        reply.code(201);
        return apiJob(request, job);
      });

      api.get('/jobs', async (request) => {
        const q = request.query as Record<string, unknown>;
        const intParam = (name: string, fallback: number, max: number): number => {
          const raw = q[name];
          if (raw === undefined) return fallback;
          if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw badRequest('invalid_query', `${name} must be a whole number.`);
          const n = Number(raw);
          if (n < 1 || n > max) throw badRequest('invalid_query', name === 'page' ? 'page must be greater than 0.' : `pageSize must be between 1 and ${max}.`);
          return n;
        };
        const page = intParam('page', 1, Number.MAX_SAFE_INTEGER);
        const pageSize = intParam('pageSize', 20, 100);
        let status: z.infer<typeof jobStatusSchema> | undefined;
        if (q.status !== undefined) {
          const parsed = jobStatusSchema.safeParse(q.status);
          if (!parsed.success) throw badRequest('invalid_query', `status must be one of: ${jobStatusSchema.options.join(', ')}.`);
          status = parsed.data;
        }
        const { jobs, total } = ctx.jobs.list(page, pageSize, status);
        return { jobs: jobs.map((j) => apiJob(request, j)), pagination: { page, pageSize, total, totalPages: Math.ceil(total / pageSize) } };
      });

      api.get('/jobs/progress', async () =>
        ctx.jobs
          .inStatus(['validating', 'booting', 'rendering', 'finalizing'])
          .map((j) => ({ jobId: j.id, completedFrames: j.completedFrames, totalFrames: j.totalFrames })),
      );

      api.get('/jobs/:id', async (request) => ({ data: apiJob(request, loadJob((request.params as { id: string }).id)) }));

      api.get('/jobs/:id/progress', async (request) => {
        const job = loadJob((request.params as { id: string }).id);
        return { jobId: job.id, completedFrames: job.completedFrames, totalFrames: job.totalFrames };
      });

      api.post('/jobs/:id/validate', async (request) => {
        const job = loadJob((request.params as { id: string }).id);
        const config = parseBody(validateRequestSchema, request.body, 'POST /jobs/{id}/validate');
        if (job.status !== 'created') {
          throw badRequest('invalid_state', `Job ${job.id} is ${job.status}; validation can only start from created.`);
        }
        const moved = ctx.jobs.transition(job.id, ['created'], 'validating', { validateConfig: config, queuedAt: ctx.now().toISOString() });
        if (!moved) throw badRequest('invalid_state', `Job ${job.id} changed status; validation can only start from created.`);
        ctx.runner.pump();
        return apiJob(request, moved);
      });

      api.post('/jobs/:id/render', async (request, reply) => {
        const job = loadJob((request.params as { id: string }).id);
        const body = request.body as { requestedRenderConfig?: unknown } | undefined;
        const requested = body?.requestedRenderConfig;
        if (requested === undefined || requested === null || typeof requested !== 'object' || Array.isArray(requested) || Object.keys(requested).length === 0) {
          throw badRequest('invalid_request', 'requestedRenderConfig is required and must be a non-empty object (at least {"colorManagementPreset": "default"}).');
        }
        if (job.renderPlan !== null) {
          reply.header('X-Idempotent-Replay', 'true');
          return apiJob(request, job);
        }
        const config = parseBody(renderConfigSchema, requested, 'requestedRenderConfig');
        if (job.status !== 'validated') {
          throw badRequest('invalid_state', `Job ${job.id} is ${job.status}; a render can only start once it is validated.`);
        }
        const planned = planRender(config, job.analysis as SceneAnalysis, ctx.capabilities, {
          outputDir: ctx.storage.framesDir(job.id),
          compositeOutputDir: ctx.storage.compositeDir(job.id),
          previewPath: ctx.storage.previewPath(job.id),
        });
        if (!planned.ok) throw badRequest(planned.code, planned.message);
        const moved = ctx.jobs.transition(job.id, ['validated'], 'booting', {
          requestedConfig: config,
          finalConfig: planned.finalConfig,
          renderPlan: planned.plan,
          totalFrames: planned.plan.frames.length,
          completedFrames: 0,
          queuedAt: ctx.now().toISOString(),
        });
        if (!moved) {
          const now = ctx.jobs.get(job.id)!;
          if (now.renderPlan !== null) {
            reply.header('X-Idempotent-Replay', 'true');
            return apiJob(request, now);
          }
          throw badRequest('invalid_state', `Job ${job.id} is ${now.status}; a render can only start once it is validated.`);
        }
        ctx.runner.pump();
        return apiJob(request, moved);
      });

      api.post('/jobs/:id/cancel', async (request) => {
        const job = loadJob((request.params as { id: string }).id);
        const cancelable = ['created', 'validating', 'validated', 'booting', 'rendering', 'finalizing', 'debugging', 'suspended'] as const;
        const moved = ctx.jobs.transition(job.id, cancelable, 'canceled', {}, 'canceled by request');
        if (!moved) {
          const now = ctx.jobs.get(job.id)!;
          throw badRequest('invalid_state', `Job ${job.id} is already ${now.status}; only unfinished jobs can be canceled.`);
        }
        if (isActiveStatus(job.status)) await ctx.runner.abort(job.id);
        request.log.info({ jobId: job.id }, 'job canceled');
        return apiJob(request, ctx.jobs.get(job.id)!);
      });

      api.get('/jobs/:id/downloads', async (request) => {
        const job = loadJob((request.params as { id: string }).id);
        const expiresAt = new Date(ctx.now().getTime() + ctx.downloadUrlTtlMs);
        const base = ctx.baseUrl(request);
        return buildDownloads(job, ctx, (rel) => signedJobFileUrl(ctx.signer, base, job.id, rel, expiresAt));
      });
    },
    { prefix: '/api/external/v1' },
  );
}
