import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CHUNK_ENCODINGS, CHUNKING, chunkedUploadRequestSchema, fileTypeOf, MAX_CHUNK_BATCH_BYTES, type ChunkedUploadRequest } from '../../../shared/api';
import { formatBytes } from '../../../shared/text';
import { type ChunkedUploadRecord, type ChunkStore, decodeChunkBatch } from '../../chunk-store';
import { freeBytes } from '../../disk';
import { badRequest, HttpError, insufficientStorage, notFound } from '../../http-error';
import { keyOf } from '../api-request';
import type { NodeContext } from '../context';
import { type ZodFastify, type ZodTypeProvider } from '../zod-route';
import { rebuildUpload } from './rebuild-upload';

/**
 * Longest a new chunked upload waits for the chunks of this key's file received whole to be stored,
 * so a re-submission right after a first one is not asked for what the node is still putting away.
 */
const SETTLE_WAIT_MS = 120_000;

/** The path parameters of a chunked upload's routes. */
export const idParams = z.object({ id: z.string().regex(/^c-[A-Za-z0-9_-]{1,64}$/) });

/**
 * The chunked-upload extension (GET/POST `node/chunked-uploads`, POST `.../{id}/complete`; the
 * batches go to the signed `chunksUrl`, see registerChunkStorageRoute): a file described as content-defined chunks, of which a key sends only those it
 * has not sent before; the node rebuilds it into an upload, as a PUT to a presigned URL would have.
 */
export function registerChunkedUploadRoutes(api: ZodFastify, ctx: NodeContext, store: ChunkStore): void {
  void api.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.get('/node/chunked-uploads', async () => ({ chunking: CHUNKING, encodings: Object.keys(CHUNK_ENCODINGS), maxBatchBytes: MAX_CHUNK_BATCH_BYTES }));

    scope.post('/node/chunked-uploads', { schema: { body: chunkedUploadRequestSchema }, bodyLimit: 48 * 1024 * 1024 }, async (request, reply) => {
      await store.settled(keyOf(request).id, SETTLE_WAIT_MS);
      const created = createChunkedUpload(ctx, store, request, request.body);
      reply.code(201);
      return created;
    });

    scope.post('/node/chunked-uploads/:id/complete', { schema: { params: idParams } }, async (request) => {
      const upload = openUpload(store, keyOf(request).id, request.params.id);
      return rebuildUpload(ctx, store, upload, request.log);
    });
  });
}

/** Records a chunked upload and answers the chunks this key has not sent yet (distinct, in file order). */
function createChunkedUpload(ctx: NodeContext, store: ChunkStore, request: FastifyRequest, body: ChunkedUploadRequest) {
  const key = keyOf(request);
  const keyId = key.id;
  if (fileTypeOf(body.fileName) !== body.fileType) {
    throw badRequest('file_type_mismatch', `fileType "${body.fileType}" does not match the extension of "${body.fileName}" (use .blend with "blend", .zip with "zip").`);
  }
  const { manifest } = body;
  const chunks = manifest.chunks ?? [];
  const distinct = [...new Set(chunks.map((c) => c.hash))];
  const owned = store.ownedBy(keyId, distinct);
  store.touch(owned);
  const bytesReused = chunks.reduce((sum, c) => sum + (owned.has(c.hash) ? c.size : 0), 0);
  const id = `c-${randomBytes(16).toString('base64url')}`;
  const expiresAt = new Date(ctx.now().getTime() + Math.max(ctx.uploadUrlTtlMs, 6 * 3600_000)).toISOString();
  store.dropExpired();
  store.createUpload({ id, keyId, userId: key.userId, fileName: body.fileName, fileType: body.fileType, size: manifest.size, sha256: manifest.sha256, chunks, expiresAt });
  const path = `/storage/chunked-uploads/${id}/chunks`;
  const signed = (at: string) => `${ctx.baseUrl(request)}${at}?${ctx.signer.sign('PUT', at, new Date(expiresAt), keyId)}`;
  return { id, missing: distinct.filter((hash) => !owned.has(hash)), bytesReused, chunksUrl: signed(path), wholeUrl: signed(`/storage/chunked-uploads/${id}/whole`), expiresAt };
}

/** The chunked upload `id` of the key `keyId`, still open; 404 for another key's, 410 once expired. */
export function openUpload(store: ChunkStore, keyId: string, id: string): ChunkedUploadRecord {
  const upload = store.getUpload(id);
  if (!upload || upload.keyId !== keyId) throw notFound(`No chunked upload "${id}".`);
  if (upload.slug === null && Date.parse(upload.expiresAt) <= Date.now()) {
    throw new HttpError(410, 'upload_expired', `Chunked upload "${id}" expired; start it again (the chunks already sent are not asked for again).`);
  }
  return upload;
}

/** Stores the chunks of a batch that belong to the upload, each checked against its hash; answers how many were stored. */
export async function receiveBatch(ctx: NodeContext, store: ChunkStore, upload: ChunkedUploadRecord, body: Buffer) {
  if (upload.slug !== null) throw new HttpError(409, 'upload_sealed', `This chunked upload already became upload "${upload.slug}"; it takes no more chunks.`);
  const free = await freeBytes(store.dir);
  if (body.length * 2 + ctx.headroomBytes > free) {
    throw insufficientStorage(`The render node's disk has ${formatBytes(free)} free, not enough for more of this scene. Free space on the node's disk, then submit again.`);
  }
  let chunks;
  try {
    chunks = decodeChunkBatch(body);
  } catch (error) {
    throw badRequest('invalid_batch', (error as Error).message);
  }
  const wanted = new Set(upload.chunks.map((c) => c.hash));
  const unknown = chunks.find((chunk) => !wanted.has(chunk.hash));
  if (unknown) throw badRequest('unknown_chunk', `Chunk ${unknown.hash.slice(0, 12)}… is not part of this upload's file.`);
  const refused = store.putAll(upload.keyId, chunks);
  if (refused !== null) throw badRequest('chunk_hash_mismatch', `The bytes sent for chunk ${refused.slice(0, 12)}… do not have that hash; send them again.`);
  store.collect();
  return { stored: chunks.length };
}
