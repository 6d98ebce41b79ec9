import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { AppHost } from '../host/host';
import type { AppEvent } from '../shared/contract';

/**
 * `GET /api/events`: the host's events as server-sent events, with a comment every
 * `keepAliveSeconds` so proxies and browsers keep the stream open. `streams` holds the open ones so
 * the server can end them when it stops. Each stream starts with `jobs.reset` for the active profile:
 * a page lists its queue again once its stream is open, so a change made before (a page just loaded
 * while the profile's jobs were still being listed, a stream opened again after a drop) is not missed.
 */
export function registerEventStream(app: FastifyInstance, host: AppHost, options: { keepAliveSeconds: number; streams: Set<ServerResponse>; headers: Record<string, string> }): void {
  app.get('/api/events', (request, reply) => {
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, { ...options.headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    response.write('retry: 2000\n\n');
    options.streams.add(response);
    const send = (event: AppEvent) => response.write(`data: ${JSON.stringify(event)}\n\n`);
    const unsubscribe = host.subscribe(send);
    void Promise.resolve(host.handlers['app.getState']({}))
      .then((state) => {
        if (!response.writableEnded) send({ name: 'jobs.reset', payload: { profileId: state.activeProfileId } });
      })
      .catch(() => undefined);
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), options.keepAliveSeconds * 1000);
    request.raw.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
      options.streams.delete(response);
    });
  });
}
