import { createHash, randomBytes } from 'node:crypto';
import { link, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { formatBytes } from '../../../shared/text';
import type { ChunkedUploadRecord, ChunkStore } from '../../chunk-store';
import { freeBytes } from '../../disk';
import { HttpError, insufficientStorage } from '../../http-error';
import type { NodeContext } from '../context';

/**
 * Rebuilds a chunked upload's file from the store into the node's uploads, as a PUT to a presigned URL
 * would have left it (a slug, marked received): every chunk is checked against its hash as it is read
 * and the whole against the manifest's SHA-256 and size. Chunks this key has not sent, or that were
 * damaged on disk (then forgotten), are answered as `{ missing }` for the client to send. Asked again
 * once rebuilt, answers the same upload.
 */
export async function rebuildUpload(ctx: NodeContext, store: ChunkStore, upload: ChunkedUploadRecord, log: FastifyBaseLogger) {
  if (upload.slug !== null) return { slug: upload.slug, size: upload.size, sha256: upload.sha256 };
  if (upload.chunks.length === 0) throw new HttpError(409, 'whole_file_expected', 'This upload was described without its chunks: send the whole file to its wholeUrl first.');
  const distinct = [...new Set(upload.chunks.map((c) => c.hash))];
  const owned = store.ownedBy(upload.keyId, distinct);
  const notSent = distinct.filter((hash) => !owned.has(hash));
  if (notSent.length > 0) return { missing: notSent };
  const free = await freeBytes(ctx.storage.uploadsDir);
  if (upload.size + ctx.headroomBytes > free) {
    throw insufficientStorage(`The render node's disk has ${formatBytes(free)} free, not enough to put this ${formatBytes(upload.size)} scene together. Free space on the node's disk, then submit again.`);
  }
  const slug = `u-${randomBytes(16).toString('base64url')}`;
  const temp = join(ctx.storage.uploadsDir, `.part-${slug}-${randomBytes(4).toString('hex')}`);
  const damaged = new Set<string>();
  const whole = createHash('sha256');
  let written = 0;
  const file = await open(temp, 'w', 0o600);
  try {
    for (const chunk of upload.chunks) {
      if (damaged.has(chunk.hash)) continue;
      const bytes = store.read(chunk.hash);
      if (bytes === null || bytes.length !== chunk.size) {
        damaged.add(chunk.hash);
        continue;
      }
      if (damaged.size > 0) continue;
      whole.update(bytes);
      await file.write(bytes, 0, bytes.length, written);
      written += bytes.length;
    }
  } catch (error) {
    await file.close();
    await rm(temp, { force: true });
    throw error;
  }
  await file.close();
  if (damaged.size > 0) {
    await rm(temp, { force: true });
    log.warn({ chunkedUpload: upload.id, damaged: damaged.size }, 'chunks missing or damaged in the chunk store: asked for again');
    return { missing: [...damaged] };
  }
  if (written !== upload.size || whole.digest('hex') !== upload.sha256) {
    await rm(temp, { force: true });
    throw new HttpError(422, 'rebuilt_mismatch', 'The chunks sent do not make the file the manifest describes (its size or SHA-256 differ). Describe the file again and resend it.');
  }
  const done = await sealUpload(ctx, store, upload, temp, slug);
  store.touch(distinct);
  log.info({ slug, bytes: upload.size, chunks: upload.chunks.length }, 'chunked upload rebuilt');
  return done;
}

/**
 * Makes the checked file at `temp` (in the uploads folder) the upload `slug` of the chunked upload's
 * key, received, exactly as a presigned PUT leaves one, and records that the chunked upload became it.
 */
export async function sealUpload(ctx: NodeContext, store: ChunkStore, upload: ChunkedUploadRecord, temp: string, slug: string) {
  const now = ctx.now();
  ctx.uploads.create({ slug, fileName: upload.fileName, fileType: upload.fileType, userId: upload.userId, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + ctx.uploadUrlTtlMs).toISOString() });
  try {
    await link(temp, ctx.storage.uploadPath(slug));
  } finally {
    await rm(temp, { force: true });
  }
  ctx.uploads.markReceived(slug, upload.size, now.toISOString());
  store.markRebuilt(upload.id, slug);
  return { slug, size: upload.size, sha256: upload.sha256 };
}
