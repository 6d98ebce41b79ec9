import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

/** Handles one request; the body is left unread for the handler. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

interface Route {
  method: string;
  path: string | RegExp;
  handler: Handler;
  remaining: number;
}

/**
 * A real HTTP server on 127.0.0.1 whose every answer a test scripts: one-shot handlers (consumed in
 * order) go before persistent ones, so a test can say "three 429s, then the real thing".
 */
export class HostileServer {
  readonly requests: RecordedRequest[] = [];
  readonly #routes: Route[] = [];
  readonly #sockets = new Set<Socket>();
  readonly #server: http.Server;
  url = '';

  private constructor() {
    this.#server = http.createServer((req, res) => void this.#handle(req, res));
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  /** Starts a server on a free port. */
  static async start(): Promise<HostileServer> {
    const server = new HostileServer();
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    server.url = `http://127.0.0.1:${(server.#server.address() as AddressInfo).port}`;
    return server;
  }

  /** Handles every matching request (after one-shot handlers). */
  route(method: string, path: string | RegExp, handler: Handler): this {
    this.#routes.push({ method, path, handler, remaining: Infinity });
    return this;
  }

  /** Handles the next `times` matching requests, before persistent handlers. */
  next(method: string, path: string | RegExp, handler: Handler, times = 1): this {
    const firstPersistent = this.#routes.findIndex((r) => r.remaining === Infinity);
    const route = { method, path, handler, remaining: times };
    if (firstPersistent === -1) this.#routes.push(route);
    else this.#routes.splice(firstPersistent, 0, route);
    return this;
  }

  /** Requests whose path (without query) matches. */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && matches(path, r.path.split('?')[0]!));
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse) {
    const path = req.url ?? '/';
    this.requests.push({ method: req.method ?? '', path, headers: req.headers });
    const bare = path.split('?')[0]!;
    const route = this.#routes.find((r) => r.remaining > 0 && r.method === req.method && matches(r.path, bare));
    if (!route) {
      sendJson(res, 404, { error: { code: 'no_route', message: `No handler for ${req.method} ${bare}` } });
      return;
    }
    if (route.remaining !== Infinity) {
      route.remaining--;
      if (route.remaining === 0) this.#routes.splice(this.#routes.indexOf(route), 1);
    }
    try {
      await route.handler(req, res);
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, { error: { code: 'handler_failed', message: String(error) } });
      else res.destroy();
    }
  }
}

function matches(pattern: string | RegExp, path: string): boolean {
  return typeof pattern === 'string' ? pattern === path : pattern.test(path);
}

/** Answers with JSON. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Reads a request body, counting every byte but keeping at most `keep` of them. */
export function readBody(req: IncomingMessage, keep = 1024 * 1024): Promise<{ length: number; head: Buffer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let length = 0;
    req.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (kept < keep) {
        chunks.push(chunk);
        kept += chunk.length;
      }
    });
    req.on('end', () => resolve({ length, head: Buffer.concat(chunks) }));
    req.on('error', reject);
  });
}

/** Reads a JSON request body. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const { head } = await readBody(req);
  return head.length === 0 ? undefined : (JSON.parse(head.toString('utf8')) as unknown);
}

/** Answers 429, with `Retry-After` when given. */
export function rateLimited(retryAfter?: string): Handler {
  return (_req, res) => sendJson(res, 429, { error: { code: 'rate_limited', message: 'Slow down' } }, retryAfter === undefined ? {} : { 'retry-after': retryAfter });
}

/** Answers with a status and an error body. */
export function failWith(status: number, message = 'failure', extra: Record<string, unknown> = {}): Handler {
  return (_req, res) => sendJson(res, status, { error: { code: `status_${status}`, message, ...extra } });
}

/** Destroys the connection without answering. */
export const cutConnection: Handler = (req) => {
  req.socket.destroy();
};

/**
 * Serves `content` like object storage: honours `Range` (206, 416) and `If-Range` against `etag`;
 * with `cutAfter` it sends that many bytes of the body and then destroys the socket, once they have
 * left this process and `cutWhen` (say, "the client wrote them to its file") has resolved.
 */
export function serveFile(content: Buffer, options: { etag?: string; cutAfter?: number; cutWhen?: () => Promise<void>; contentType?: string } = {}): Handler {
  return (req, res) => {
    const etag = options.etag ?? '"v1"';
    let start = 0;
    let end = content.length - 1;
    let status = 200;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const ifRange = req.headers['if-range'];
    if (range && (ifRange === undefined || ifRange === etag)) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), content.length - 1) : content.length - 1;
      if (start >= content.length) {
        res.writeHead(416, { 'content-range': `bytes */${content.length}` });
        res.end();
        return;
      }
      status = 206;
    }
    const body = content.subarray(start, end + 1);
    const headers: Record<string, string | number> = { 'content-length': body.length, etag, 'content-type': options.contentType ?? 'application/octet-stream', 'accept-ranges': 'bytes' };
    if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${content.length}`;
    res.writeHead(status, headers);
    if (options.cutAfter !== undefined && options.cutAfter < body.length) {
      const cutWhen = options.cutWhen ?? (() => Promise.resolve());
      res.write(body.subarray(0, options.cutAfter), () => void cutWhen().then(() => res.destroy()));
      return;
    }
    res.end(body);
  };
}

/**
 * A presigned-PUT endpoint as strict as object storage: refuses chunked bodies, a missing or wrong
 * Content-Length, an Authorization header and a Content-Type other than `contentType`.
 */
export function strictPut(options: { contentType: string; onBody?: (length: number, head: Buffer) => void }): Handler {
  return async (req, res) => {
    if (req.headers['transfer-encoding']) {
      req.resume();
      sendJson(res, 411, { error: { code: 'chunked', message: 'Transfer-Encoding not allowed' } });
      return;
    }
    if (req.headers.authorization) {
      req.resume();
      sendJson(res, 400, { error: { code: 'auth_header', message: 'Authorization header not allowed on presigned URL' } });
      return;
    }
    if (req.headers['content-type'] !== options.contentType) {
      req.resume();
      sendJson(res, 403, { error: { code: 'content_type', message: `SignatureDoesNotMatch: content type ${req.headers['content-type']}` } });
      return;
    }
    const declared = Number(req.headers['content-length']);
    const { length, head } = await readBody(req);
    if (!Number.isFinite(declared) || declared !== length) {
      sendJson(res, 400, { error: { code: 'length', message: `Content-Length ${declared} but ${length} bytes` } });
      return;
    }
    options.onBody?.(length, head);
    res.writeHead(200, { 'content-length': 0 });
    res.end();
  };
}
