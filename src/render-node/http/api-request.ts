import type { FastifyRequest } from 'fastify';
import type { Job } from '../../shared/api';
import { HttpError, notFound } from '../http-error';
import { signedJobFileUrl, toApiJob } from './job-payload';
import type { JobRecord } from '../store';
import type { NodeContext } from './context';

/** The key a request was authenticated with (the API guard has run). */
export function keyOf(request: FastifyRequest): { id: string; userId: string } {
  if (!request.apiKey) throw new HttpError(401, 'unauthorized', 'Missing API key: send "Authorization: Bearer <key>".');
  return request.apiKey;
}

/** The job with this id; 404 when the workspace has none. */
export function loadJob(ctx: NodeContext, id: string): JobRecord {
  const job = ctx.jobs.get(id);
  if (!job) throw notFound(`No job ${id} in this workspace.`);
  return job;
}

/** A job as the API shows it to the key that asked, with its download links signed for that key. */
export function apiJobFor(ctx: NodeContext, request: FastifyRequest, job: JobRecord): Job {
  return toApiJob(job, {
    workspaceId: ctx.workspaceId,
    signer: ctx.signer,
    base: ctx.baseUrl(request),
    downloadExpiresAt: new Date(ctx.now().getTime() + ctx.downloadUrlTtlMs),
    jobs: ctx.jobs,
    storage: ctx.storage,
    keyId: keyOf(request).id,
    statusMessage: ctx.runner.statusMessage(job.id),
    waiting: ctx.runner.waitingFor(job),
    estimate: ctx.runner.estimates?.of(job) ?? null,
  });
}

/** Signs URLs of a job's files (paths relative to its folder) for the key that asked. */
export function jobFileSigner(ctx: NodeContext, request: FastifyRequest, jobId: string): (relPath: string) => string {
  const expiresAt = new Date(ctx.now().getTime() + ctx.downloadUrlTtlMs);
  const base = ctx.baseUrl(request);
  const keyId = keyOf(request).id;
  return (relPath) => signedJobFileUrl(ctx.signer, base, jobId, relPath, expiresAt, keyId);
}
