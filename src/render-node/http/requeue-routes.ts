import { z } from 'zod';
import { requeueRequestSchema } from '../../shared/api';
import { badRequest } from '../http-error';
import { requeueJob } from '../jobs';
import { apiJobFor, loadJob } from './api-request';
import type { NodeContext } from './context';
import { jobParams } from './request-schemas';
import type { ZodFastify } from './zod-route';

const REQUEST_RULE = 'POST /node/jobs/{id}/requeue: send {"frames": ["5", "9-12"]} (frames or ranges of the job) or {"failed": true} (every frame not rendered), nothing else.';

/**
 * `POST /node/jobs/{id}/requeue` (a Renderdrop node's extension): render frames of a job that ended
 * again inside the same job, `{frames: ["5", "9-12"]}` or `{failed: true}`; answers the job.
 */
export function registerRequeueRoutes(api: ZodFastify, ctx: NodeContext): void {
  api.post('/node/jobs/:id/requeue', { schema: { params: jobParams, body: z.unknown() } }, async (request) => {
    const body = requeueRequestSchema.safeParse(request.body);
    if (!body.success) throw badRequest('invalid_request', REQUEST_RULE);
    const job = loadJob(ctx, request.params.id);
    const { job: moved, frames } = await requeueJob(
      {
        jobs: ctx.jobs,
        storage: ctx.storage,
        now: ctx.now,
        isRunning: (id) => ctx.runner.isRunning(id),
        prepare: (id, list) => ctx.runner.prepareRequeue(id, list),
      },
      job,
      body.data,
    );
    request.log.info({ jobId: job.id, frames: frames.length }, 'frames requeued');
    ctx.runner.pump();
    return apiJobFor(ctx, request, moved);
  });
}
