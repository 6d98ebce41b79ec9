import { workerBlockRequestSchema } from '../../shared/api';
import { HttpError, notFound } from '../http-error';
import { loadJob } from './api-request';
import type { NodeContext } from './context';
import type { ZodFastify } from './zod-route';

/**
 * `GET /node/workers`: how this node renders and, in distributed mode, its render workers (those that
 * stopped are listed for a day) and the blocks. `POST /node/workers/block` and `/unblock` keep a worker
 * from a job (or every job) by hand, or let it take them again, and answer the worker list. Extensions
 * of the Renderdrop node, registered inside the API's key check.
 */
export function registerWorkerRoutes(api: ZodFastify, ctx: NodeContext): void {
  api.get('/node/workers', async () => ctx.workers());

  for (const block of [true, false]) {
    api.post(`/node/workers/${block ? 'block' : 'unblock'}`, { schema: { body: workerBlockRequestSchema } }, async (request) => {
      const set = ctx.setWorkerBlock;
      if (!set) throw new HttpError(409, 'no_render_workers', 'This node renders with its own Blender: it has no render workers to block or unblock.');
      const { worker } = request.body;
      const jobId = request.body.jobId === undefined ? null : loadJob(ctx, request.body.jobId).id;
      if (block) {
        const view = await ctx.workers();
        const known = view.mode === 'distributed' && (view.workers.some((w) => w.name === worker) || (view.blocks ?? []).some((b) => b.worker === worker));
        if (!known) throw notFound(`No render worker named "${worker}" reported in the last day; check the name in the worker list.`);
      }
      request.log.info({ worker, jobId, block }, block ? 'worker blocked by hand' : 'worker unblocked');
      return set(block, worker, jobId);
    });
  }
}
