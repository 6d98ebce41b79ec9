import fastifyStatic from '@fastify/static';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { contentSecurityPolicy } from '../shared/security';
import { errorBody, sendError } from './web-errors';

/**
 * Serves the built renderer from `root`: assets by their path, and `index.html` (with the Content
 * Security Policy, never cached) for `/` and any other path without an extension, so deep links load
 * the app. A missing asset is a 404 in the one error shape; an unbuilt UI says how to build it.
 */
export async function registerStaticFiles(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    index: false,
    wildcard: true,
    cacheControl: false,
    dotfiles: 'deny',
    setHeaders: (reply, path) => {
      const isHtml = extname(path) === '.html';
      reply.header('cache-control', isHtml ? 'no-store' : 'public, max-age=3600');
      if (isHtml) reply.header('content-security-policy', contentSecurityPolicy());
    },
  });
  app.get('/', (_request, reply) => reply.sendFile('index.html'));
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/')) return sendError(reply, 404, errorBody('contract', 'no-route', `No route ${request.method} ${path}.`));
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendError(reply, 405, errorBody('contract', 'method', 'Method not allowed.'));
    if (extname(path) !== '') return sendError(reply, 404, errorBody('contract', 'not-found', 'Not found.'));
    if (!(await stat(join(root, 'index.html')).catch(() => null))?.isFile()) {
      return sendError(reply, 503, errorBody('config', 'not-built', 'The Renderdrop UI is not built yet. Run `npm run build`, then start `renderdrop web` again.'));
    }
    return reply.sendFile('index.html');
  });
}
