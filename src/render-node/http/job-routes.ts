import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../http-error';
import { apiJobFor, jobFileSigner, keyOf, loadJob } from './api-request';
import type { JobRecord } from '../store';
import type { NodeContext } from './context';
import { buildDownloads, buildJobFrames } from './downloads';
import { createJobBody, jobParams, listQuery } from './request-schemas';
import type { ZodFastify } from './zod-route';

const PROGRESSING = ['validating', 'booting', 'rendering', 'finalizing'] as const;

/** Creating, listing and reading jobs, their progress and their files. */
export function registerJobRoutes(api: ZodFastify, ctx: NodeContext): void {
  api.post('/jobs', { schema: { body: createJobBody } }, async (request, reply) => {
    const job = createJob(ctx, request, request.body.slug);
    reply.code(201);
    return apiJobFor(ctx, request, job);
  });

  api.get('/jobs', { schema: { querystring: listQuery } }, async (request) => {
    const { page, pageSize, status } = request.query;
    const { jobs, total } = ctx.jobs.list(page, pageSize, status);
    return { jobs: jobs.map((j) => apiJobFor(ctx, request, j)), pagination: { page, pageSize, total, totalPages: Math.ceil(total / pageSize) } };
  });

  api.get('/jobs/progress', async () => ctx.jobs.inStatus(PROGRESSING).map(progressOf));

  api.get('/jobs/:id', { schema: { params: jobParams } }, async (request) => ({ data: apiJobFor(ctx, request, loadJob(ctx, request.params.id)) }));

  api.get('/jobs/:id/progress', { schema: { params: jobParams } }, async (request) => progressOf(loadJob(ctx, request.params.id)));

  api.get('/jobs/:id/downloads', { schema: { params: jobParams } }, async (request) => {
    const job = loadJob(ctx, request.params.id);
    return buildDownloads(job, ctx, jobFileSigner(ctx, request, job.id));
  });

  api.get('/node/jobs/:id/frames', { schema: { params: jobParams } }, async (request) => {
    const job = loadJob(ctx, request.params.id);
    return buildJobFrames(job, ctx, jobFileSigner(ctx, request, job.id));
  });
}

function progressOf(job: JobRecord) {
  return { jobId: job.id, completedFrames: job.completedFrames, totalFrames: job.totalFrames };
}

/** A job on an upload whose file has arrived; each upload makes one job only (409 `slug_used`). */
function createJob(ctx: NodeContext, request: FastifyRequest, slug: string): JobRecord {
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
  return job;
}
