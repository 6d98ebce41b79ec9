import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream/promises';
import { Readable, type Transform } from 'node:stream';
import { z } from 'zod';
import { type ChunkData, chunkPathPrefix, type ChunkStatus, chunkStatusSchema, EMPTY_BODY_SHA256, signWorkerRequest } from '../distributed';
import { type WorkerKeys } from '../worker-access';
import { type ManifestChunk, manifestChunkSchema } from '../../shared/api';

/** The node refused a request for a reason retrying cannot fix. */
export class NodeRefusedError extends Error {
  override readonly name = 'NodeRefusedError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The node no longer takes the job's frames (canceled, failed or done). */
export class JobStoppedError extends Error {
  override readonly name = 'JobStoppedError';
}

/** How long requests are retried while the node cannot be reached (it may be restarting). */
const DEFAULT_PATIENCE_MS = 10 * 60_000;

/** A request body: how to read it (again, for each try) and its SHA-256, which the request's signature covers. */
interface Body {
  open: () => NodeJS.ReadableStream;
  sha256: string;
}

/** A file as a request body: its size and hash, read once before the upload. */
async function fileBody(path: string): Promise<Body & { size: number }> {
  const size = (await stat(path)).size;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { open: () => createReadStream(path), sha256: hash.digest('hex'), size };
}

interface Answer {
  status: number;
  body: IncomingMessage;
}

function send(method: string, url: string, headers: Record<string, string>, body: (() => NodeJS.ReadableStream) | null, signal?: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { method, headers, signal, timeout: 60_000 });
    req.on('response', (res) => resolve({ status: res.statusCode ?? 0, body: res }));
    req.on('timeout', () => req.destroy(new Error('the node did not answer in time')));
    req.on('error', reject);
    if (body) pipeline(body(), req).catch(reject);
    else req.end();
  });
}

async function readText(res: IncomingMessage): Promise<string> {
  let text = '';
  res.setEncoding('utf8');
  for await (const chunk of res) text += String(chunk);
  return text;
}

const errorAnswer = z.object({ error: z.object({ code: z.unknown(), message: z.unknown() }).partial().optional() });
const frameAnswer = z.object({ counted: z.unknown() });
const sceneChunksAnswer = z.object({ chunks: z.array(manifestChunkSchema).nullable() });

function errorOf(text: string): { code: string; message: string } {
  try {
    const parsed = errorAnswer.safeParse(JSON.parse(text));
    const error = parsed.success ? parsed.data.error : undefined;
    return { code: String(error?.code ?? 'error'), message: String(error?.message ?? text) };
  } catch {
    return { code: 'error', message: text.slice(0, 200) };
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    }, { once: true });
  });

/**
 * A worker's side of the node: a chunk's status, its scene, and the upload of what it renders, each
 * with the URLs the node signed for the chunk and this worker's signature of the request (made with
 * the worker secret). The node's address is the worker's own setting, never read from Redis. Network
 * errors and 5xx answers are retried for up to `patienceMs` (the node may be restarting), other
 * refusals are thrown at once. With `worker`, each request names this worker in its query (covered by
 * the request's signature): the node records who rendered each frame and logs who took each chunk.
 */
export class NodeClient {
  private readonly nodeUrl: string;

  constructor(
    nodeUrl: string,
    private readonly keys: WorkerKeys,
    private readonly patienceMs = DEFAULT_PATIENCE_MS,
    private readonly worker: string | null = null,
  ) {
    this.nodeUrl = nodeUrl.replace(/\/+$/, '');
  }

  async status(chunk: ChunkData, signal?: AbortSignal): Promise<ChunkStatus> {
    const res = await this.call('GET', chunk, 'status', chunk.get, {}, null, signal);
    return chunkStatusSchema.parse(JSON.parse(await readText(res)));
  }

  /** Download the chunk's scene into `target`, passing the bytes through `check` (e.g. a hash). */
  async downloadScene(chunk: ChunkData, target: string, check: () => Transform, signal?: AbortSignal): Promise<void> {
    const res = await this.call('GET', chunk, 'scene', chunk.get, {}, null, signal);
    await pipeline(res, check(), createWriteStream(target), { signal });
  }

  /** The chunks the node keeps of the chunk's scene, in order (null: it keeps none; fetch the scene whole). */
  async sceneChunks(chunk: ChunkData, signal?: AbortSignal): Promise<ManifestChunk[] | null> {
    const res = await this.call('GET', chunk, 'scene-chunks', chunk.get, {}, null, signal);
    return sceneChunksAnswer.parse(JSON.parse(await readText(res))).chunks;
  }

  /** `length` bytes of the chunk's scene from `offset`. */
  async sceneRange(chunk: ChunkData, offset: number, length: number, signal?: AbortSignal): Promise<Buffer> {
    const res = await this.call('GET', chunk, 'scene', chunk.get, { range: `bytes=${offset}-${offset + length - 1}` }, null, signal);
    const parts: Buffer[] = [];
    let size = 0;
    for await (const part of res) {
      size += (part as Buffer).length;
      if (size > length) throw new Error(`The node sent more of the scene than the ${length} bytes asked for.`);
      parts.push(part as Buffer);
    }
    return Buffer.concat(parts);
  }

  /** Upload a frame; false when the node already had it. */
  async putFrame(chunk: ChunkData, frame: number, name: string, path: string, seconds: number, signal?: AbortSignal): Promise<boolean> {
    const body = await fileBody(path);
    const res = await this.call(
      'PUT',
      chunk,
      `frames/${frame}/${encodeURIComponent(name)}`,
      chunk.put,
      { 'content-type': 'application/octet-stream', 'content-length': String(body.size), 'x-render-seconds': String(seconds) },
      body,
      signal,
    );
    const answer = frameAnswer.safeParse(JSON.parse(await readText(res)));
    return answer.success && answer.data.counted === true;
  }

  /** Upload the small PNG of a frame (`name` is the frame file's name) before the frame itself. */
  async putPreview(chunk: ChunkData, frame: number, name: string, path: string, signal?: AbortSignal): Promise<void> {
    const body = await fileBody(path);
    const res = await this.call(
      'PUT',
      chunk,
      `previews/${frame}/${encodeURIComponent(name)}`,
      chunk.put,
      { 'content-type': 'image/png', 'content-length': String(body.size) },
      body,
      signal,
    );
    res.resume();
  }

  /** Upload a compositor File Output file of the chunk. */
  async putComposite(chunk: ChunkData, node: string, name: string, path: string, signal?: AbortSignal): Promise<void> {
    const body = await fileBody(path);
    const res = await this.call(
      'PUT',
      chunk,
      `composite/${encodeURIComponent(node)}/${encodeURIComponent(name)}`,
      chunk.put,
      { 'content-type': 'application/octet-stream', 'content-length': String(body.size) },
      body,
      signal,
    );
    res.resume();
  }

  /** Send lines Blender printed while rendering the chunk; the node adds them to the job's log. */
  async putLog(chunk: ChunkData, workerName: string, text: string, signal?: AbortSignal): Promise<void> {
    const body = Buffer.from(text, 'utf8');
    const res = await this.call(
      'PUT',
      chunk,
      'log',
      chunk.put,
      { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(body.length), 'x-worker-name': workerName.replace(/[^\x20-\x7e]/g, '') },
      { open: () => Readable.from([body]), sha256: createHash('sha256').update(body).digest('hex') },
      signal,
    );
    res.resume();
  }

  private async call(
    method: 'GET' | 'PUT',
    chunk: ChunkData,
    rest: string,
    query: string,
    headers: Record<string, string>,
    body: Body | null,
    signal?: AbortSignal,
  ): Promise<IncomingMessage> {
    const deadline = Date.now() + this.patienceMs;
    for (let attempt = 0; ; attempt++) {
      let problem: string;
      try {
        const named = this.worker === null ? '' : `&worker=${encodeURIComponent(this.worker)}`;
        const path = `${chunkPathPrefix(chunk.jobId, chunk.index)}${rest}?${query}${named}`;
        const signature = signWorkerRequest(this.keys, method, path, new Date(), body?.sha256 ?? EMPTY_BODY_SHA256);
        const res = await send(method, `${this.nodeUrl}${path}`, { ...headers, ...signature }, body?.open ?? null, signal);
        if (res.status >= 200 && res.status < 300) return res.body;
        const error = errorOf(await readText(res.body));
        if (res.status === 409 || res.status === 404) throw new JobStoppedError(error.message);
        // 507: the node's disk is full; it fails the job, so sending again would only repeat the refusal.
        if (res.status < 500 || res.status === 507) throw new NodeRefusedError(res.status, error.code, error.message);
        problem = `${res.status} ${error.message}`;
      } catch (err) {
        if (err instanceof NodeRefusedError || err instanceof JobStoppedError || signal?.aborted) throw err;
        problem = err instanceof Error ? err.message : String(err);
      }
      if (Date.now() > deadline) throw new Error(`The node could not be reached for ${Math.round(this.patienceMs / 1000)} s (${problem}).`);
      await sleep(Math.min(5000, 250 * 2 ** Math.min(attempt, 5)), signal);
    }
  }
}
