import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { handedOverProgress, startHandoverListener, submitHandedOver } from '../host/handover';
import type { AppHost } from '../host/host';
import { registerCalls } from './call-route';
import { registerEventStream } from './event-stream';
import { guardRequests } from './session-login';
import { registerStaticFiles } from './static-files';
import { registerUploads } from './upload-route';
import { handleError } from './web-errors';

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
  /** Listen for scenes the Blender add-on hands over, announced in the config folder's `handover.json` (default true). */
  handover?: boolean;
}

/** A running browser-mode server. */
export interface WebServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** The link to open once: it trades the one-time token for the session cookie and the page's secret. */
  loginUrl: string;
  port: number;
  /** Where the Blender add-on hands scenes over (`handover.json` says so too); null when not listening. */
  handoverUrl: string | null;
  /** Resolves once the token has been traded for the session. */
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
 * token is good once: it is traded for an HttpOnly, SameSite=Strict session cookie and the app's page
 * carrying a second secret in its body. Requests with another Host or Origin, or without the cookie,
 * are refused; the API also wants the page's secret in a header, since every server on 127.0.0.1
 * receives the cookie. Calls naming a path on disk take only paths in the artist's home folder
 * (`host.pageHandlers`). Every error, Fastify's own included, is answered in one shape:
 * `{ "ok": false, "error": { "kind", "code", "message" } }`. Scenes the Blender add-on hands over
 * arrive on a listener of their own (see `startHandoverListener`) and are submitted as if dropped.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const session = randomBytes(32).toString('base64url');
  const pageSecret = randomBytes(32).toString('base64url');
  const streams = new Set<ServerResponse>();
  let port = 0;

  const app = createFastify();
  const appPage = () => readFile(join(options.staticDir, 'index.html'), 'utf8').catch(() => null);
  const tokenUsed = guardRequests(app, { token, session, pageSecret, port: () => port, appPage });
  registerCalls(app, options.host);
  registerEventStream(app, options.host, { keepAliveSeconds: options.keepAliveSeconds ?? 15, streams, headers: SECURITY_HEADERS });
  await registerUploads(app, options.host);
  await registerStaticFiles(app, options.staticDir);

  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  port = listeningPort(app);
  const url = `http://127.0.0.1:${port}`;
  const submit = options.host.handlers['submissions.submit'];
  const handover =
    options.handover === false
      ? null
      : await startHandoverListener({
          configDir: options.host.configDir,
          deliver: (scene) => submitHandedOver(submit, scene),
          progress: handedOverProgress(options.host.handlers),
        }).catch(async (error: unknown) => {
          await app.close();
          throw error;
        });
  return {
    url,
    loginUrl: `${url}/?token=${token}`,
    port,
    handoverUrl: handover?.info.url ?? null,
    tokenUsed,
    close: async () => {
      await handover?.close();
      for (const stream of streams) stream.end();
      await app.close();
    },
  };
}

/** Fastify without logs, with the body limit, the one error shape and the security headers. */
function createFastify(): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_JSON_BYTES,
    forceCloseConnections: true,
    frameworkErrors: (error, request, reply) => handleError(error, request, reply),
  });
  app.setErrorHandler(handleError);
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });
  return app;
}

function listeningPort(app: FastifyInstance): number {
  for (const address of app.addresses()) if (typeof address !== 'string') return address.port;
  throw new Error('Browser mode is not listening on a port.');
}
