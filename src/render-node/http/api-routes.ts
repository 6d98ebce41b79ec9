import type { FastifyInstance } from 'fastify';
import type { NodeContext } from './context';
import type { RequestLimiter } from './rate-limit';
import { guardApi } from './api-guard';
import { zodValidatorCompiler, type ZodTypeProvider } from './zod-route';
import { registerUploadRoutes } from './upload-routes';
import { registerJobRoutes } from './job-routes';
import { registerJobActionRoutes } from './job-action-routes';
import { registerWorkerRoutes } from './worker-routes';
import { registerLogRoutes } from './log-routes';
import { registerChunkedUploadRoutes } from './chunked/chunked-upload-routes';

/**
 * The Render Job External API, under /api/external/v1. Every node key works in the node's one
 * workspace: each key sees and may act on every job (keys say who may use the node, not whose job it is).
 */
export function registerApiRoutes(app: FastifyInstance, ctx: NodeContext, limiter: RequestLimiter): void {
  app.register(
    async (plain) => {
      const api = plain.withTypeProvider<ZodTypeProvider>();
      api.setValidatorCompiler(zodValidatorCompiler);
      guardApi(api, ctx.db, limiter);
      registerUploadRoutes(api, ctx);
      registerJobRoutes(api, ctx);
      registerJobActionRoutes(api, ctx);
      registerWorkerRoutes(api, ctx);
      registerLogRoutes(api, ctx);
      if (ctx.chunkStore) registerChunkedUploadRoutes(api, ctx, ctx.chunkStore);
    },
    { prefix: '/api/external/v1' },
  );
}
