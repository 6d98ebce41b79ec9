import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializeError } from '../core/errors';
import type { AppHost } from '../host/host';
import { dispatchCall } from '../shared/contract';
import { registerEventStream } from './event-stream';
import { checkRequest, SESSION_COOKIE, sameSecret } from './request-guard';
import { registerStaticFiles } from './static-files';
import { errorBody, handleError, sendError } from './web-errors';

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
  /** Resolves once the token has been traded for the session cookie. */
  tokenUsed: Promise<void>;
  close(): Promise<void>;
}

/** Largest body of a call. */
export const MAX_JSON_BYTES = 1024 * 1024;

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Serves the built renderer and the app contract on 127.0.0.1 with Fastify: `POST /api/call/<name>`
 * (JSON, checked with the contract's schemas), `GET /api/events` (server-sent events) and
 * `PUT /api/upload?name=` (a dropped file's raw bytes, answered with a token). The printed link's
 * token is good once: it is traded for an HttpOnly, SameSite=Strict session cookie. Requests with
 * another Host or Origin, or without the cookie, are refused. Every error, Fastify's own included,
 * is answered in one shape: `{ "ok": false, "error": { "kind", "code", "message" } }`.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const session = randomBytes(32).toString('base64url');
  const streams = new Set<ServerResponse>();
  let port = 0;
  let tokenUsed = false;
  let markTokenUsed: () => void = () => undefined;
  const used = new Promise<void>((resolve) => (markTokenUsed = resolve));

  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: MAX_JSON_BYTES,
    forceCloseConnections: true,
    frameworkErrors: (error, request, reply) => handleError(error, request, reply),
  });
  app.setErrorHandler(handleError);
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });

  app.addHook('onRequest', async (request, reply) => {
    const [path = '/', query = ''] = request.url.split('?', 2);
    const presented = request.method === 'GET' && path === '/' ? new URLSearchParams(query).get('token') : null;
    const verdict = checkRequest(
      { host: request.headers.host, origin: request.headers.origin, cookie: request.headers.cookie },
      { port, session, needsSession: presented === null },
    );
    if (verdict) return sendError(reply, verdict.status, errorBody('auth', 'refused', verdict.reason));
    if (presented === null) return;
    if (tokenUsed || !sameSecret(presented, token)) {
      return sendError(reply, 401, errorBody('auth', 'refused', 'This link was already used or is wrong. Use the browser tab that is already open, or restart `renderdrop web` for a new link.'));
    }
    tokenUsed = true;
    markTokenUsed();
    return reply.code(303).headers({ location: '/', 'set-cookie': `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`, 'cache-control': 'no-store' }).send();
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    try {
      done(null, text.trim() === '' ? {} : JSON.parse(text));
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
    }
  });

  app.post<{ Params: { name: string } }>('/api/call/:name', async (request, reply) => {
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      return sendError(reply, 415, errorBody('contract', 'content-type', 'Calls must be sent as application/json.'));
    }
    return dispatchCall(options.host.handlers, request.params.name, request.body ?? {}, serializeError);
  });

  registerEventStream(app, options.host, { keepAliveSeconds: options.keepAliveSeconds ?? 15, streams, headers: SECURITY_HEADERS });

  await app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_request, _payload, done) => done(null));
    uploads.route<{ Querystring: { name?: string } }>({
      method: ['PUT', 'POST'],
      url: '/api/upload',
      handler: async (request, reply) => {
        const name = request.query.name?.trim();
        if (!name) {
          request.raw.resume();
          return sendError(reply, 400, errorBody('contract', 'no-name', 'Say the file name with ?name=.'));
        }
        try {
          const staged = await options.host.stageUpload(name, request.raw);
          return { ok: true, value: { token: staged.token, size: staged.size } };
        } catch (error) {
          const serialized = serializeError(error);
          reply.header('connection', 'close');
          return sendError(reply, 413, errorBody(serialized.kind, serialized.code ?? 'upload-refused', serialized.message));
        }
      },
    });
  });

  await registerStaticFiles(app, options.staticDir);

  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  port = listeningPort(app);
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    loginUrl: `${url}/?token=${token}`,
    port,
    tokenUsed: used,
    close: async () => {
      for (const stream of streams) stream.end();
      await app.close();
    },
  };
}

function listeningPort(app: FastifyInstance): number {
  for (const address of app.addresses()) if (typeof address !== 'string') return address.port;
  throw new Error('Browser mode is not listening on a port.');
}
