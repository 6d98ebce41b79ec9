import type { FastifyInstance } from 'fastify';
import type { NodeContext } from './context';

/**
 * `GET /node/workers`: how this node renders and, in distributed mode, its render workers. An
 * extension of the Renderdrop node, registered inside the API's key check.
 */
export function registerWorkerRoutes(api: FastifyInstance, ctx: NodeContext): void {
  api.get('/node/workers', async () => ctx.workers());
}
