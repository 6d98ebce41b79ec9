import type { FastifyInstance } from 'fastify';
import { serializeError } from '../core/errors';
import type { AppHost } from '../host/host';
import { errorBody, sendError } from './web-errors';

/**
 * `PUT /api/upload?name=` (or POST): a dropped file's raw bytes, streamed into the host and answered
 * with the token `submissions.submit` takes. A refused upload closes the connection.
 */
export async function registerUploads(app: FastifyInstance, host: AppHost): Promise<void> {
  await app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_request, _payload, done) => done(null));
    uploads.route<{ Querystring: { name?: string } }>({
      method: ['PUT', 'POST'],
      url: '/api/upload',
      handler: async (request, reply) => {
        const name = request.query.name?.trim();
        if (!name) {
          request.raw.resume();
          return sendError(reply, 400, errorBody('contract', 'no-name', 'Say the file name with ?name=.'));
        }
        try {
          const staged = await host.stageUpload(name, request.raw);
          return { ok: true, value: { token: staged.token, size: staged.size } };
        } catch (error) {
          const serialized = serializeError(error);
          reply.header('connection', 'close');
          return sendError(reply, 413, errorBody(serialized.kind, serialized.code ?? 'upload-refused', serialized.message));
        }
      },
    });
  });
}
