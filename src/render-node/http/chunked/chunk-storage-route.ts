import type { FastifyInstance } from 'fastify';
import { CHUNK_BATCH_CONTENT_TYPE, MAX_CHUNK_BATCH_BYTES } from '../../../shared/api';
import type { ChunkStore } from '../../chunk-store';
import { forbidden, HttpError } from '../../http-error';
import { isKeyActive } from '../../store';
import type { NodeContext } from '../context';
import { signedQuery } from '../request-schemas';
import { zodValidatorCompiler, type ZodTypeProvider } from '../zod-route';
import { idParams, openUpload, receiveBatch } from './chunked-upload-routes';

/**
 * `PUT /storage/chunked-uploads/{id}/chunks`: a batch of chunks, sent to the signed `chunksUrl` a
 * chunked upload was answered with. Like the presigned PUT of a whole file it takes no API key (the
 * signature names the key, whose chunks they become), so it goes straight to the node's storage.
 */
export function registerChunkStorageRoute(app: FastifyInstance, ctx: NodeContext, store: ChunkStore): void {
  app.register(async (plain) => {
    const storage = plain.withTypeProvider<ZodTypeProvider>();
    storage.setValidatorCompiler(zodValidatorCompiler);
    storage.removeAllContentTypeParsers();
    storage.addContentTypeParser(CHUNK_BATCH_CONTENT_TYPE, { parseAs: 'buffer', bodyLimit: MAX_CHUNK_BATCH_BYTES + 1024 * 1024 }, (_request, body, done) => done(null, body));
    storage.addContentTypeParser('*', (_request, _payload, done) => done(null));
    storage.put('/storage/chunked-uploads/:id/chunks', { schema: { params: idParams, querystring: signedQuery } }, async (request) => {
      const path = `/storage/chunked-uploads/${request.params.id}/chunks`;
      const verdict = ctx.signer.verify('PUT', path, request.query, ctx.now());
      if (verdict.status !== 'ok') {
        throw verdict.status === 'expired'
          ? forbidden('url_expired', 'This chunked upload has expired; describe the file again (what was sent is not asked for again).')
          : forbidden('signature_invalid', 'This URL is not validly signed (tampered or incomplete).');
      }
      if (!isKeyActive(ctx.db, verdict.keyId)) throw forbidden('key_revoked', 'This URL was issued to an API key that has since been revoked; start again with a valid key.');
      if (!Buffer.isBuffer(request.body)) throw new HttpError(415, 'content_type_mismatch', `Send a batch of chunks with Content-Type ${CHUNK_BATCH_CONTENT_TYPE}.`);
      return receiveBatch(ctx, store, openUpload(store, verdict.keyId, request.params.id), request.body);
    });
  });
}
