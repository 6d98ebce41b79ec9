import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { formatBytes } from '../../../shared/text';
import type { ChunkedUploadRecord, ChunkStore } from '../../chunk-store';
import { freeBytes } from '../../disk';
import { HttpError, insufficientStorage } from '../../http-error';
import type { NodeContext } from '../context';
import { signedQuery } from '../request-schemas';
import { zodValidatorCompiler, type ZodTypeProvider } from '../zod-route';
import { idParams, openUpload } from './chunked-upload-routes';
import { cutReceivedFile } from './cut-received-file';
import { sealUpload } from './rebuild-upload';
import { signedKey } from './signed-key';

/** Bytes of chunks stored at once while a whole file is taken apart. */
const INGEST_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * `PUT /storage/chunked-uploads/{id}/whole`: the whole file of a chunked upload in one PUT, for a file
 * the node has little of (a first submission), so it travels as fast as a presigned PUT does. The node
 * hashes it as it arrives and, when its size and SHA-256 are the manifest's, it becomes the upload at
 * once; then, in the background, the file is cut at the manifest's chunk sizes and every chunk whose
 * hash matches is stored as sent by the key (it did send those bytes), so the next submission sends
 * only what changed. A file described without chunks (a project the client never sent here) is
 * received exactly as a presigned PUT is, its size checked, and its SHA-256 checked in the background
 * as the node cuts it (cutReceivedFile): one that is not the file described keeps no chunk list, so
 * render workers fetch it whole. A PUT cut short keeps the chunks of what arrived the same way, so
 * sending again sends only the rest.
 */
export function registerWholeRoute(app: FastifyInstance, ctx: NodeContext, store: ChunkStore): void {
  app.register(async (plain) => {
    const storage = plain.withTypeProvider<ZodTypeProvider>();
    storage.setValidatorCompiler(zodValidatorCompiler);
    storage.removeAllContentTypeParsers();
    storage.addContentTypeParser('*', (_request, _payload, done) => done(null));
    storage.put('/storage/chunked-uploads/:id/whole', { schema: { params: idParams, querystring: signedQuery } }, async (request) => {
      const keyId = signedKey(ctx, 'PUT', `/storage/chunked-uploads/${request.params.id}/whole`, request.query);
      const upload = openUpload(store, keyId, request.params.id);
      if (upload.slug !== null) throw new HttpError(409, 'upload_sealed', `This chunked upload already became upload "${upload.slug}".`);
      const length = Number(request.headers['content-length'] ?? NaN);
      if (length !== upload.size) throw new HttpError(411, 'length_required', `Send the whole file in one PUT with its exact Content-Length (${upload.size} bytes).`);
      const free = await freeBytes(ctx.storage.uploadsDir);
      if (length + ctx.headroomBytes > free) {
        throw insufficientStorage(`The render node's disk has ${formatBytes(free)} free, not enough for this ${formatBytes(length)} file. Free space on the node's disk, then send the file again.`);
      }
      const slug = `u-${randomBytes(16).toString('base64url')}`;
      const temp = join(ctx.storage.uploadsDir, `.part-${slug}-${randomBytes(4).toString('hex')}`);
      const cutByNode = upload.chunks.length === 0;
      const hash = cutByNode ? null : createHash('sha256');
      let received = 0;
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          hash?.update(chunk);
          done(received > length ? new HttpError(400, 'length_mismatch', 'More bytes arrived than Content-Length announced.') : null, chunk);
        },
      });
      try {
        await pipeline(request.raw, hashing, createWriteStream(temp, { highWaterMark: 1024 * 1024 }));
      } catch (error) {
        store.track(upload.keyId, ingestChunks(store, upload, temp, false, request.log).finally(() => rm(temp, { force: true })));
        throw error instanceof HttpError ? error : new HttpError(400, 'upload_incomplete', `The upload stopped after ${received} of ${length} bytes; send it again (what arrived is not asked for again).`);
      }
      if (received !== upload.size || (hash !== null && hash.digest('hex') !== upload.sha256)) {
        await rm(temp, { force: true });
        throw new HttpError(422, 'rebuilt_mismatch', 'The file sent is not the one the manifest describes (its size or SHA-256 differ). Describe the file again and resend it.');
      }
      const done = await sealUpload(ctx, store, upload, temp, slug);
      request.log.info({ slug, bytes: upload.size }, 'chunked upload received whole');
      store.track(upload.keyId, ingestChunks(store, upload, ctx.storage.uploadPath(slug), true, request.log));
      return done;
    });
  });
}

/**
 * Stores the chunks of a file received whole (or of the part that arrived), each checked against the
 * manifest (a chunk the file does not hold whole is left out), a batch at a time between other work;
 * a file described without chunks is cut by the node (cutReceivedFile).
 */
async function ingestChunks(store: ChunkStore, upload: ChunkedUploadRecord, path: string, complete: boolean, log: FastifyBaseLogger): Promise<void> {
  if (upload.chunks.length === 0) {
    try {
      const chunks = await cutReceivedFile(store, upload, path, complete);
      store.collect();
      log.info({ chunkedUpload: upload.id, chunks }, 'chunks of a file received whole stored (cut by the node)');
    } catch (err) {
      log.warn({ err, chunkedUpload: upload.id }, 'a file received whole, cut by the node, kept no chunk list; what is missing is asked for next time');
    }
    return;
  }
  let file;
  try {
    file = await open(path, 'r');
  } catch {
    return;
  }
  let stored = 0;
  try {
    let offset = 0;
    let batch: { hash: string; bytes: Buffer }[] = [];
    let batchBytes = 0;
    const seen = new Set<string>();
    for (const chunk of upload.chunks) {
      const at = offset;
      offset += chunk.size;
      if (seen.has(chunk.hash)) continue;
      seen.add(chunk.hash);
      const bytes = Buffer.allocUnsafe(chunk.size);
      const { bytesRead } = await file.read(bytes, 0, chunk.size, at);
      if (bytesRead !== chunk.size || createHash('sha256').update(bytes).digest('hex') !== chunk.hash) continue;
      batch.push({ hash: chunk.hash, bytes });
      batchBytes += chunk.size;
      if (batchBytes >= INGEST_BATCH_BYTES) {
        store.putAll(upload.keyId, batch);
        stored += batch.length;
        batch = [];
        batchBytes = 0;
        await nextTurn();
      }
    }
    store.putAll(upload.keyId, batch);
    stored += batch.length;
    store.collect();
    log.info({ chunkedUpload: upload.id, chunks: stored }, 'chunks of a file received whole stored');
  } catch (err) {
    log.warn({ err, chunkedUpload: upload.id, stored }, 'chunks of a file received whole could not all be stored; they are asked for next time');
  } finally {
    await file.close();
  }
}
