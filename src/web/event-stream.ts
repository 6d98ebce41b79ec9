import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { AppHost } from '../host/host';

/**
 * `GET /api/events`: the host's events as server-sent events, with a comment every
 * `keepAliveSeconds` so proxies and browsers keep the stream open. `streams` holds the open ones so
 * the server can end them when it stops.
 */
export function registerEventStream(app: FastifyInstance, host: AppHost, options: { keepAliveSeconds: number; streams: Set<ServerResponse>; headers: Record<string, string> }): void {
  app.get('/api/events', (request, reply) => {
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, { ...options.headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    response.write('retry: 2000\n\n');
    options.streams.add(response);
    const unsubscribe = host.subscribe((event) => {
      response.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), options.keepAliveSeconds * 1000);
    request.raw.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
      options.streams.delete(response);
    });
  });
}
