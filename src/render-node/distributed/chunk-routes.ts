import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { HttpError, forbidden, notFound } from '../http-error';
import { serveFile, signedQuery, type SignedQuery, type UrlSigner, type ZodTypeProvider, zodValidatorCompiler } from '../http';
import type { ChunkIntake } from './chunk-intake';
import { CHUNK_SIGNING_KEY, chunkPathPrefix } from './protocol';
import { claimedBodySha256, verifiedBody, verifyWorkerRequest } from './request-signature';
import type { WorkerKeys } from '../worker-access';
import { type JobLogs, receiveWorkerLog, workerLabel } from '../logs';
import { describeFrames } from './chunk-plan';
import type { ManifestChunk } from '../../shared/api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Loose on purpose: a path that names no chunk is a 404, checked by chunkOf, not a 400.
const chunkParams = z.object({ jobId: z.string(), index: z.string() });
const frameParams = chunkParams.extend({ frame: z.string(), name: z.string() });
const compositeParams = chunkParams.extend({ node: z.string(), name: z.string() });
/** The chunk's signed query, and the name of the worker sending the request (covered by its request signature). */
const workerQuery = signedQuery.extend({ worker: z.string().max(200).optional() });
type ChunkParams = z.output<typeof chunkParams>;

function chunkOf(params: ChunkParams): { jobId: string; index: number } {
  if (!UUID.test(params.jobId) || !/^\d{1,6}$/.test(params.index)) throw notFound('No such chunk.');
  return { jobId: params.jobId, index: Number(params.index) };
}

/** The body of an authorised PUT, checked as it is read against the SHA-256 its worker signature covers. */
function signedBody(request: FastifyRequest): Readable {
  return verifiedBody(request.raw, claimedBodySha256(request.headers) ?? '');
}

function contentLength(request: FastifyRequest): number {
  if (request.headers['transfer-encoding']) throw new HttpError(411, 'length_required', 'Send the file with its exact Content-Length, not chunked.');
  const header = request.headers['content-length'];
  if (header === undefined || !/^\d+$/.test(header)) throw new HttpError(411, 'length_required', 'Content-Length is required.');
  return Number(header);
}

const REQUEST_REFUSED = {
  missing: 'This request carries no worker signature: only render workers holding the worker secret may use chunk URLs.',
  expired: "This request's worker signature has expired; check that the worker's clock is right.",
  invalid: 'This request\'s worker signature is not valid for this method and path (another worker secret, or a request replayed elsewhere).',
} as const;

/**
 * The routes render workers use: the chunk's status, its scene (whole, in ranges, and the list of its
 * content-defined chunks when it came as a chunked upload), and the upload of its frames, their
 * previews and compositor outputs. Each request needs two signatures: the query signature the node made over the
 * chunk's path prefix when it queued the chunk, and the worker's own signature of this very request
 * and its body's hash made with the worker secret (so a URL read from Redis is useless alone, and a
 * body changed on the way is refused before it is kept). No API key is involved.
 */
export function registerChunkRoutes(
  app: FastifyInstance,
  deps: { signer: UrlSigner; keys: WorkerKeys; intake: ChunkIntake; now: () => Date; logs?: JobLogs; sceneChunks?: (scenePath: string) => ManifestChunk[] | null },
): void {
  const authorise = (request: { params: ChunkParams; query: SignedQuery; raw: { url?: string }; headers: FastifyRequest['headers'] }, method: 'GET' | 'PUT'): { jobId: string; index: number } => {
    const chunk = chunkOf(request.params);
    const worker = verifyWorkerRequest(deps.keys, method, request.raw.url ?? '', request.headers, deps.now());
    if (worker !== 'ok') throw forbidden(`worker_signature_${worker}`, REQUEST_REFUSED[worker]);
    const verdict = deps.signer.verify(method, chunkPathPrefix(chunk.jobId, chunk.index), request.query, deps.now());
    if (verdict.status === 'expired') throw forbidden('url_expired', 'This chunk\'s signed URLs have expired.');
    if (verdict.status !== 'ok' || verdict.keyId !== CHUNK_SIGNING_KEY) throw forbidden('signature_invalid', 'This URL is not validly signed for this chunk.');
    return chunk;
  };

  app.register(async (plain) => {
    const routes = plain.withTypeProvider<ZodTypeProvider>();
    routes.setValidatorCompiler(zodValidatorCompiler);
    routes.removeAllContentTypeParsers();
    routes.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const base = '/storage/render/:jobId/chunks/:index';

    const chunkSchema = { schema: { params: chunkParams, querystring: signedQuery } };
    routes.get(`${base}/status`, { schema: { params: chunkParams, querystring: workerQuery } }, async (request) => {
      const { jobId, index } = authorise(request, 'GET');
      const worker = request.query.worker;
      return deps.intake.status(jobId, index, (frames) => {
        if (worker !== undefined) deps.logs?.writer(jobId)(`${workerLabel(worker)} renders frames ${describeFrames(frames)}`);
      });
    });

    routes.get(`${base}/scene`, chunkSchema, async (request, reply) => {
      const { jobId, index } = authorise(request, 'GET');
      await serveFile(request, reply, deps.intake.scenePath(jobId, index));
      return reply;
    });

    routes.get(`${base}/scene-chunks`, chunkSchema, async (request) => {
      const { jobId, index } = authorise(request, 'GET');
      return { chunks: deps.sceneChunks?.(deps.intake.scenePath(jobId, index)) ?? null };
    });

    routes.put(`${base}/frames/:frame/:name`, { schema: { params: frameParams, querystring: workerQuery } }, async (request) => {
      const { jobId, index } = authorise(request, 'PUT');
      const { frame, name } = request.params;
      if (!/^\d{1,7}$/.test(frame)) throw new HttpError(400, 'frame_not_in_chunk', 'The frame must be a number.');
      const seconds = Number(request.headers['x-render-seconds']);
      const file = { body: signedBody(request), length: contentLength(request) };
      const worker = request.query.worker === undefined ? null : workerLabel(request.query.worker);
      return deps.intake.receiveFrame(jobId, index, Number(frame), name, file, Number.isFinite(seconds) && seconds >= 0 ? seconds : 0, worker);
    });

    routes.put(`${base}/previews/:frame/:name`, { schema: { params: frameParams, querystring: signedQuery } }, async (request) => {
      const { jobId, index } = authorise(request, 'PUT');
      const { frame, name } = request.params;
      if (!/^\d{1,7}$/.test(frame)) throw new HttpError(400, 'frame_not_in_chunk', 'The frame must be a number.');
      return deps.intake.receivePreview(jobId, index, Number(frame), name, { body: signedBody(request), length: contentLength(request) });
    });

    routes.put(`${base}/composite/:node/:name`, { schema: { params: compositeParams, querystring: signedQuery } }, async (request) => {
      const { jobId, index } = authorise(request, 'PUT');
      const { node, name } = request.params;
      await deps.intake.receiveComposite(jobId, index, node, name, { body: signedBody(request), length: contentLength(request) });
      return { stored: true };
    });

    routes.put(`${base}/log`, { schema: { params: chunkParams, querystring: workerQuery } }, async (request) => {
      const { jobId } = authorise(request, 'PUT');
      const length = contentLength(request);
      const logs = deps.logs;
      if (!logs) {
        request.raw.resume();
        return { kept: 0 };
      }
      return { kept: await receiveWorkerLog(logs, jobId, request.query.worker ?? request.headers['x-worker-name'], { body: signedBody(request), length }) };
    });
  });
}
