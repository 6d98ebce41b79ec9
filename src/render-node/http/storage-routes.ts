import { createWriteStream } from 'node:fs';
import { link, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES, UPLOAD_CONTENT_TYPES, type FileType } from '../../shared/api';
import { HttpError, forbidden, insufficientStorage, notFound } from '../http-error';
import { shuttingDown } from './request-drain';
import { serveFile } from './serve-file';
import { isKeyActive, type UploadRecord } from '../store';
import { freeBytes, isDiskFullError } from '../disk';
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
      checkSignature(ctx, request.query, 'PUT', `/storage/uploads/${slug}`);
      const upload = ctx.uploads.get(slug);
      if (!upload) throw notFound(`No upload "${slug}".`);
      if (upload.jobId || upload.receivedAt) throw sealed(slug, upload.jobId);
      const length = announcedLength(request, upload);
      await checkRoomFor(ctx, length);
      await receiveUpload(ctx, request, slug, length);
      reply.code(200).header('ETag', `"${slug}-${length}"`);
      return reply.send();
    });

    storage.route({
      method: ['GET', 'HEAD'],
      url: '/storage/jobs/:jobId/*',
      exposeHeadRoute: false,
      schema: { params: jobFileParams, querystring: signedQuery },
      handler: async (request, reply) => {
        const rawPath = request.url.split('?')[0]!;
        checkSignature(ctx, request.query, 'GET', rawPath);
        await serveFile(request, reply, await jobFileAt(ctx, request.params.jobId, rawPath));
        return reply;
      },
    });
  });
}

/** The exact size an upload's PUT announces, refused when absent, too large, empty or of the wrong content type. */
function announcedLength(request: FastifyRequest, upload: Pick<UploadRecord, 'fileType'>): number {
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
  checkContentType(h['content-type'], upload.fileType);
  return length;
}

function checkContentType(header: string | undefined, fileType: FileType): void {
  const expected = UPLOAD_CONTENT_TYPES[fileType];
  const contentType = (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== expected) {
    throw new HttpError(415, 'content_type_mismatch', `A ${fileType} upload must be sent with Content-Type ${expected} (got ${contentType || 'none'}).`);
  }
}

/** Refuses (507) a file the node's disk has no room for, keeping the headroom free. */
async function checkRoomFor(ctx: NodeContext, length: number): Promise<void> {
  const free = await freeBytes(ctx.storage.uploadsDir);
  if (length + ctx.headroomBytes > free) {
    throw insufficientStorage(`The render node's disk has ${formatBytes(free)} free, not enough for this ${formatBytes(length)} file. Free space on the node's disk, then send the file again.`);
  }
}

/**
 * Stream the request body to a scratch file and link it into place once exactly `length` bytes have
 * arrived, then mark the upload received. A second PUT racing this one finds the file there (409).
 */
async function receiveUpload(ctx: NodeContext, request: FastifyRequest, slug: string, length: number): Promise<void> {
  const temp = join(ctx.storage.uploadsDir, `.part-${slug}-${randomBytes(4).toString('hex')}`);
  const counter = new ByteCounter(length);
  try {
    await receiveBody(request.raw, counter, createWriteStream(temp, { highWaterMark: 1024 * 1024 }), ctx.stopping);
    if (counter.received !== length) {
      throw new HttpError(400, 'length_mismatch', `Received ${counter.received} bytes, Content-Length announced ${length}.`);
    }
    await link(temp, ctx.storage.uploadPath(slug));
  } catch (err) {
    await rm(temp, { force: true });
    throw uploadFailure(ctx, request, err, { slug, received: counter.received, length });
  }
  await rm(temp, { force: true });
  try {
    ctx.uploads.markReceived(slug, length, ctx.now().toISOString());
  } catch (err) {
    await rm(ctx.storage.uploadPath(slug), { force: true });
    throw err;
  }
  request.log.info({ slug, bytes: length }, 'upload stored');
}

/**
 * Streams a request body through `counter` into `file`. When `stopping` aborts, the rest of the body is
 * discarded and the copy fails with a 503 naming how far it got, so the connection can still carry that
 * answer (a piped request would be destroyed with its socket); a client that disconnects fails it as
 * interrupted.
 */
async function receiveBody(body: IncomingMessage, counter: ByteCounter, file: Writable, stopping: AbortSignal): Promise<void> {
  const stop = () => {
    body.unpipe(counter);
    body.resume();
    counter.destroy(shuttingDown(`The render node shut down after ${counter.received} of ${counter.limit} bytes of this file arrived; send it again once the node is back.`));
  };
  const cut = () => {
    if (!body.complete) counter.destroy(Object.assign(new Error('The client closed the connection.'), { code: 'ECONNRESET' }));
  };
  const fail = (err: Error) => counter.destroy(err);
  body.once('close', cut).once('error', fail);
  body.pipe(counter);
  const copied = pipeline(counter, file);
  if (stopping.aborted) stop();
  else stopping.addEventListener('abort', stop, { once: true });
  try {
    await copied;
  } finally {
    stopping.removeEventListener('abort', stop);
    body.off('close', cut).off('error', fail);
  }
}

/** A pass-through stream that counts bytes and fails once more than `length` arrive. */
class ByteCounter extends Transform {
  received = 0;

  constructor(readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null, data?: Buffer) => void): void {
    this.received += chunk.length;
    if (this.received > this.limit) callback(new HttpError(400, 'length_mismatch', 'More bytes arrived than Content-Length announced.'));
    else callback(null, chunk);
  }
}

/** The error a failed upload answers with: sealed, disk full, or interrupted. */
function uploadFailure(ctx: NodeContext, request: FastifyRequest, err: unknown, at: { slug: string; received: number; length: number }): Error {
  const { slug, received, length } = at;
  if (err instanceof HttpError) return err;
  if (err instanceof Error && 'code' in err && err.code === 'EEXIST') return sealed(slug, ctx.uploads.get(slug)?.jobId ?? null);
  if (isDiskFullError(err)) {
    request.log.warn(at, 'upload stopped: the disk is full');
    return insufficientStorage(`The render node's disk filled up after ${received} of ${length} bytes of this file. Free space on the node's disk, then send the file again.`);
  }
  request.log.warn(at, 'upload interrupted');
  return new HttpError(400, 'upload_incomplete', `The upload stopped after ${received} of ${length} bytes; send it again.`);
}

/**
 * The file a signed job file URL names, inside the job's folder; 404 for anything else. Each segment
 * of the path is decoded first and then the whole is resolved and confined, so an encoded `..` or `/`
 * cannot leave the folder either.
 */
async function jobFileAt(ctx: NodeContext, jobId: string, rawPath: string): Promise<string> {
  const prefix = `/storage/jobs/${jobId}/`;
  if (!rawPath.startsWith(prefix)) throw notFound('No such file.');
  let relPath: string;
  try {
    relPath = rawPath.slice(prefix.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    throw notFound('No such file.');
  }
  if (relPath.includes('\0')) throw notFound('No such file.');
  const root = resolve(ctx.storage.jobDir(jobId));
  const file = resolve(root, relPath);
  if (!file.startsWith(root + sep)) throw notFound('No such file.');
  const st = await stat(file).catch(() => null);
  if (!st?.isFile()) throw notFound('No such file (it may have been removed).');
  return file;
}
