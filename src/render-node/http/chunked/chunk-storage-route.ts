import type { FastifyInstance } from 'fastify';
import { CHUNK_BATCH_CONTENT_TYPE, MAX_CHUNK_BATCH_BYTES } from '../../../shared/api';
import type { ChunkStore } from '../../chunk-store';
import { HttpError } from '../../http-error';
import type { NodeContext } from '../context';
import { signedQuery } from '../request-schemas';
import { signedKey } from './signed-key';
import { registerWholeRoute } from './whole-upload';
import { zodValidatorCompiler, type ZodTypeProvider } from '../zod-route';
import { idParams, openUpload, receiveBatch } from './chunked-upload-routes';

/**
 * `PUT /storage/chunked-uploads/{id}/chunks`: a batch of chunks, sent to the signed `chunksUrl` a
 * chunked upload was answered with. Like the presigned PUT of a whole file it takes no API key (the
 * signature names the key, whose chunks they become), so it goes straight to the node's storage.
 * Beside it, the PUT of the whole file (registerWholeRoute).
 */
export function registerChunkStorageRoute(app: FastifyInstance, ctx: NodeContext, store: ChunkStore): void {
  app.register(async (plain) => {
    const storage = plain.withTypeProvider<ZodTypeProvider>();
    storage.setValidatorCompiler(zodValidatorCompiler);
    storage.removeAllContentTypeParsers();
    storage.addContentTypeParser(CHUNK_BATCH_CONTENT_TYPE, { parseAs: 'buffer', bodyLimit: MAX_CHUNK_BATCH_BYTES + 1024 * 1024 }, (_request, body, done) => done(null, body));
    storage.put('/storage/chunked-uploads/:id/chunks', { schema: { params: idParams, querystring: signedQuery } }, async (request) => {
      const keyId = signedKey(ctx, 'PUT', `/storage/chunked-uploads/${request.params.id}/chunks`, request.query);
      if (!Buffer.isBuffer(request.body)) throw new HttpError(415, 'content_type_mismatch', `Send a batch of chunks with Content-Type ${CHUNK_BATCH_CONTENT_TYPE}.`);
      return receiveBatch(ctx, store, openUpload(store, keyId, request.params.id), request.body);
    });
  });
  registerWholeRoute(app, ctx, store);
}

