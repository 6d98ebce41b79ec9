import { z } from 'zod';
import type { JobLog } from '../../shared/api';
import type { NodeContext } from './context';
import { loadJob } from './api-request';
import { jobParams } from './request-schemas';
import type { ZodFastify } from './zod-route';

/** Query of `GET /node/jobs/{id}/log`: the byte of the log to start from (default 0). */
const logQuery = z.object({
  since: z
    .string()
    .regex(/^\d{1,15}$/, { error: 'since must be a whole number of bytes (0 or more).' })
    .transform(Number)
    .default(0),
});

/**
 * `GET /node/jobs/{id}/log`: what Blender printed for a job so far (a Renderdrop node's extension,
 * registered inside the API's key check; other servers answer 404).
 */
export function registerLogRoutes(api: ZodFastify, ctx: NodeContext): void {
  api.get('/node/jobs/:id/log', { schema: { params: jobParams, querystring: logQuery } }, async (request): Promise<JobLog> => {
    const job = loadJob(ctx, request.params.id);
    return { jobId: job.id, ...ctx.logs.read(job.id, request.query.since) };
  });
}
