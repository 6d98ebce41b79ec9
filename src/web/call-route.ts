import type { FastifyInstance } from 'fastify';
import { serializeError } from '../core/errors';
import type { AppHost } from '../host/host';
import { dispatchCall } from '../shared/contract';
import { errorBody, sendError } from './web-errors';

/**
 * `POST /api/call/<name>`: one call of the contract, its JSON body checked with the call's schema, run
 * by the host's page handlers (a path on disk must be in the artist's home folder). JSON is the only
 * body the server parses (an empty body is `{}`).
 */
export function registerCalls(app: FastifyInstance, host: AppHost): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    try {
      done(null, text.trim() === '' ? {} : JSON.parse(text));
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
    }
  });

  app.post<{ Params: { name: string } }>('/api/call/:name', async (request, reply) => {
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      return sendError(reply, 415, errorBody('contract', 'content-type', 'Calls must be sent as application/json.'));
    }
    return dispatchCall(host.pageHandlers, request.params.name, request.body ?? {}, serializeError);
  });
}
