import { createWriteStream } from 'node:fs';
import { link, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES, UPLOAD_CONTENT_TYPES } from '../../shared/api';
import { HttpError, forbidden, insufficientStorage, notFound } from './http-error';
import { serveFile } from './serve-file';
import { isKeyActive } from '../store/keys';
import { freeBytes, isDiskFullError } from '../disk/disk-space';
import { formatBytes } from '../../shared/text';
import type { NodeContext } from './context';
import type { SignedQuery } from './signing';
import { zodValidatorCompiler, type ZodTypeProvider } from './zod-route';
import { jobFileParams, signedQuery, uploadParams } from './request-schemas';

/** Check a signed URL: its signature, its expiry, and that the key it was issued to is still valid. */
function checkSignature(ctx: NodeContext, query: SignedQuery, method: string, path: string): void {
  const verdict = ctx.signer.verify(method, path, query, ctx.now());
  if (verdict.status !== 'ok') {
    throw verdict.status === 'expired'
      ? forbidden('url_expired', 'This signed URL has expired; request a new one.')
      : forbidden('signature_invalid', 'This URL is not validly signed (tampered or incomplete).');
  }
  if (!isKeyActive(ctx.db, verdict.keyId)) {
    throw forbidden('key_revoked', 'This URL was issued to an API key that has since been revoked; request a new one with a valid key.');
  }
}

const sealed = (slug: string, jobId: string | null) =>
  new HttpError(
    409,
    'upload_sealed',
    jobId
      ? `Upload "${slug}" already became job ${jobId}; its URL takes no more files. Request a new upload to send another file.`
      : `Upload "${slug}" already received its file; its URL takes one file only. Request a new upload to send another file.`,
  );

/**
 * The node's object storage: presigned PUT of uploads, signed GET/HEAD of job outputs. These routes
 * take no API key; the URL's signature is the authorisation.
 */
export function registerStorageRoutes(app: FastifyInstance, ctx: NodeContext): void {
  app.register(async (plain) => {
    const storage = plain.withTypeProvider<ZodTypeProvider>();
    storage.setValidatorCompiler(zodValidatorCompiler);
    storage.removeAllContentTypeParsers();
    storage.addContentTypeParser('*', (_request, _payload, done) => done(null));

    storage.put('/storage/uploads/:slug', { schema: { params: uploadParams, querystring: signedQuery } }, async (request, reply) => {
      const { slug } = request.params;
      const path = `/storage/uploads/${slug}`;
      checkSignature(ctx, request.query, 'PUT', path);
      const upload = ctx.uploads.get(slug);
      if (!upload) throw notFound(`No upload "${slug}".`);
      if (upload.jobId || upload.receivedAt) throw sealed(slug, upload.jobId);
      const h = request.headers;
      if (h['transfer-encoding']) {
        throw new HttpError(411, 'length_required', 'Chunked transfer encoding is not accepted; send the file with its exact Content-Length.');
      }
      const lengthHeader = h['content-length'];
      if (lengthHeader === undefined || !/^\d+$/.test(lengthHeader)) {
        throw new HttpError(411, 'length_required', 'Content-Length is required: send the file in one PUT with its exact length.');
      }
      const length = Number(lengthHeader);
      if (length >= MAX_UPLOAD_BYTES) {
        throw new HttpError(413, 'too_large', `Files must be smaller than 5 GiB (this one is ${length} bytes).`);
      }
      if (length === 0) throw new HttpError(400, 'empty_file', 'The file is empty.');
      const expected = UPLOAD_CONTENT_TYPES[upload.fileType];
      const contentType = (h['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (contentType !== expected) {
        throw new HttpError(415, 'content_type_mismatch', `A ${upload.fileType} upload must be sent with Content-Type ${expected} (got ${contentType || 'none'}).`);
      }
      const free = await freeBytes(ctx.storage.uploadsDir);
      if (length + ctx.headroomBytes > free) {
        throw insufficientStorage(`The render node's disk has ${formatBytes(free)} free, not enough for this ${formatBytes(length)} file. Free space on the node's disk, then send the file again.`);
      }
      const temp = join(ctx.storage.uploadsDir, `.part-${slug}-${randomBytes(4).toString('hex')}`);
      let received = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          received += chunk.length;
          if (received > length) cb(new HttpError(400, 'length_mismatch', 'More bytes arrived than Content-Length announced.'));
          else cb(null, chunk);
        },
      });
      try {
        await pipeline(request.raw, counter, createWriteStream(temp, { highWaterMark: 1024 * 1024 }));
        if (received !== length) {
          throw new HttpError(400, 'length_mismatch', `Received ${received} bytes, Content-Length announced ${length}.`);
        }
        await link(temp, ctx.storage.uploadPath(slug));
      } catch (err) {
        await rm(temp, { force: true });
        if (err instanceof HttpError) throw err;
        if (err instanceof Error && 'code' in err && err.code === 'EEXIST') throw sealed(slug, ctx.uploads.get(slug)?.jobId ?? null);
        if (isDiskFullError(err)) {
          request.log.warn({ slug, received, length }, 'upload stopped: the disk is full');
          throw insufficientStorage(`The render node's disk filled up after ${received} of ${length} bytes of this file. Free space on the node's disk, then send the file again.`);
        }
        request.log.warn({ slug, received, length }, 'upload interrupted');
        throw new HttpError(400, 'upload_incomplete', `The upload stopped after ${received} of ${length} bytes; send it again.`);
      }
      await rm(temp, { force: true });
      try {
        ctx.uploads.markReceived(slug, length, ctx.now().toISOString());
      } catch (err) {
        await rm(ctx.storage.uploadPath(slug), { force: true });
        throw err;
      }
      request.log.info({ slug, bytes: length }, 'upload stored');
      reply.code(200).header('ETag', `"${slug}-${length}"`);
      return reply.send();
    });

    storage.route({ method: ['GET', 'HEAD'], url: '/storage/jobs/:jobId/*', exposeHeadRoute: false, schema: { params: jobFileParams, querystring: signedQuery }, handler: async (request, reply) => {
      const { jobId } = request.params;
      const rawPath = request.url.split('?')[0]!;
      checkSignature(ctx, request.query, 'GET', rawPath);
      const prefix = `/storage/jobs/${jobId}/`;
      let relPath: string;
      try {
        relPath = rawPath.slice(prefix.length).split('/').map(decodeURIComponent).join('/');
      } catch {
        throw notFound('No such file.');
      }
      const root = resolve(ctx.storage.jobDir(jobId));
      const file = resolve(root, relPath);
      if (!file.startsWith(root + sep)) throw notFound('No such file.');
      const st = await stat(file).catch(() => null);
      if (!st?.isFile()) throw notFound('No such file (it may have been removed).');
      await serveFile(request, reply, file);
      return reply;
    } });
  });
}
