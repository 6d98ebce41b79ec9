import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { serializeError } from '../core/errors';
import type { AppHost } from '../host/host';
import { dispatchCall } from '../shared/contract/dispatch';
import { checkRequest, SESSION_COOKIE, sameSecret } from './request-guard';
import { RENDERER_ASSET_TYPES } from '../shared/renderer-asset-types';
import { contentSecurityPolicy } from '../shared/content-security-policy';

/** How to serve browser mode. */
export interface WebServerOptions {
  host: AppHost;
  /** The built renderer (index.html and assets). */
  staticDir: string;
  /** Port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  /** The one-time token of the printed link (random when absent). */
  token?: string;
  /** Seconds between SSE keep-alive comments. */
  keepAliveSeconds?: number;
}

/** A running browser-mode server. */
export interface WebServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** The link to open once: it trades the one-time token for a session cookie. */
  loginUrl: string;
  port: number;
  close(): Promise<void>;
}

const MAX_JSON_BYTES = 1024 * 1024;



const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Serves the built renderer and the app contract on 127.0.0.1: `POST /api/call/<name>` (JSON, checked
 * with the contract's schemas), `GET /api/events` (server-sent events) and `PUT /api/upload?name=`
 * (a dropped file's raw bytes, answered with a token). The printed link's token is good once: it is
 * traded for an HttpOnly, SameSite=Strict session cookie. Requests with another Host or Origin, or
 * without the cookie, are refused.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  let tokenUsed = false;
  const session = randomBytes(32).toString('base64url');
  const streams = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let port = 0;

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { ok: false, error: serializeError(error) });
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const presentedToken = request.method === 'GET' && path === '/' ? url.searchParams.get('token') : null;
    const verdict = checkRequest(
      { host: request.headers.host, origin: header(request, 'origin'), cookie: request.headers.cookie },
      { port, session, needsSession: presentedToken === null },
    );
    if (verdict) return refuse(request, response, verdict.status, verdict.reason);

    if (presentedToken !== null) {
      if (tokenUsed || !sameSecret(presentedToken, token)) {
        return refuse(request, response, 401, 'This link was already used or is wrong. Use the browser tab that is already open, or restart `renderdrop web` for a new link.');
      }
      tokenUsed = true;
      response.writeHead(303, {
        ...SECURITY_HEADERS,
        location: '/',
        'set-cookie': `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`,
        'cache-control': 'no-store',
      });
      response.end();
      return;
    }

    if (path.startsWith('/api/call/') && request.method === 'POST') return call(request, response, decodeURIComponent(path.slice('/api/call/'.length)));
    if (path === '/api/events' && request.method === 'GET') return events(request, response);
    if (path === '/api/upload' && (request.method === 'PUT' || request.method === 'POST')) return upload(request, response, url);
    if (path.startsWith('/api/')) return sendJson(response, 404, { ok: false, error: { kind: 'contract', code: 'no-route', message: `No route ${request.method} ${path}.` } });
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { ok: false, error: { kind: 'contract', message: 'Method not allowed.' } });
    return serveStatic(response, path);
  }

  async function call(request: IncomingMessage, response: ServerResponse, name: string) {
    const type = request.headers['content-type'] ?? '';
    if (!type.toLowerCase().startsWith('application/json')) {
      request.resume();
      return sendJson(response, 415, { ok: false, error: { kind: 'contract', code: 'content-type', message: 'Calls must be sent as application/json.' } });
    }
    let payload: unknown;
    try {
      const text = await readBody(request, MAX_JSON_BYTES);
      payload = text.trim() === '' ? {} : JSON.parse(text);
    } catch (error) {
      return sendJson(response, 400, { ok: false, error: { kind: 'contract', code: 'bad-body', message: (error as Error).message } });
    }
    sendJson(response, 200, await dispatchCall(options.host.handlers, name, payload, serializeError));
  }

  function events(request: IncomingMessage, response: ServerResponse) {
    response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    response.write('retry: 2000\n\n');
    streams.add(response);
    const unsubscribe = options.host.subscribe((event) => {
      response.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), (options.keepAliveSeconds ?? 15) * 1000);
    request.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
      streams.delete(response);
    });
  }

  async function upload(request: IncomingMessage, response: ServerResponse, url: URL) {
    const name = url.searchParams.get('name')?.trim();
    if (!name) {
      request.resume();
      return sendJson(response, 400, { ok: false, error: { kind: 'contract', code: 'no-name', message: 'Say the file name with ?name=.' } });
    }
    try {
      const staged = await options.host.stageUpload(name, request);
      sendJson(response, 200, { ok: true, value: { token: staged.token, size: staged.size } });
    } catch (error) {
      response.setHeader('connection', 'close');
      sendJson(response, 413, { ok: false, error: serializeError(error) });
    }
  }

  async function serveStatic(response: ServerResponse, path: string) {
    const relative = normalize(decodeURIComponent(path)).replace(/^([/\\])+/, '');
    if (relative.split(/[/\\]/).includes('..')) return sendJson(response, 400, { ok: false, error: { kind: 'contract', message: 'Bad path.' } });
    const root = normalize(options.staticDir + sep);
    let file = join(root, relative === '' ? 'index.html' : relative);
    let info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      if (extname(relative) !== '') return sendText(response, 404, 'Not found.');
      file = join(root, 'index.html');
      info = await stat(file).catch(() => null);
      if (!info?.isFile()) {
        return sendText(response, 503, 'The Renderdrop UI is not built yet. Run `npm run build`, then start `renderdrop web` again.');
      }
    }
    const body = await readFile(file);
    const isHtml = extname(file) === '.html';
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': RENDERER_ASSET_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': isHtml ? 'no-store' : 'public, max-age=3600',
      ...(isHtml ? { 'content-security-policy': contentSecurityPolicy() } : {}),
    });
    response.end(body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    loginUrl: `${url}/?token=${token}`,
    port,
    close: async () => {
      for (const stream of streams) stream.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function refuse(request: IncomingMessage, response: ServerResponse, status: number, reason: string) {
  request.resume();
  if ((request.url ?? '').startsWith('/api/')) return sendJson(response, status, { ok: false, error: { kind: 'auth', code: 'refused', message: reason } });
  sendText(response, status, reason);
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}

function sendText(response: ServerResponse, status: number, text: string) {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('The request body is larger than 1 MiB.'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
