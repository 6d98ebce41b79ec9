import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { removeOwnHandoverFile, writeHandoverFile, type HandoverInfo } from './handover-file';
import { checkFollowHead, checkHandoverHead, HANDOVER_PATH, MAX_HANDOVER_BYTES, sceneFromBody, type HandoverRefusal } from './handover-request';

/** What the app answers for a scene handed over: taken (it shows like a dropped file; with the submission's id when known), or refused with why. */
export type HandoverOutcome = { accepted: true; submissionId?: string } | { accepted: false; error: string };

/** How a handed-over submission is doing, for the add-on to show in Blender (see `handedOverProgress`). */
export type HandedOverProgress = Record<string, unknown>;

/** How to start the hand-over listener. */
export interface HandoverOptions {
  /** The Renderdrop config folder (that of config.json): `handover.json` goes there. */
  configDir: string;
  /** Passes a scene into the app the way a dropped file enters it. */
  deliver(scene: string): Promise<HandoverOutcome>;
  /** How a submission handed over is doing (null: not known); without it the add-on cannot follow. */
  progress?: (submissionId: string, seenPreview: string | null) => Promise<HandedOverProgress | null>;
  /** Fixed secret (tests); random when absent. */
  token?: string;
  pid?: number;
}

/** A running hand-over listener. */
export interface HandoverListener {
  readonly info: HandoverInfo;
  /** Where `handover.json` was written. */
  readonly file: string;
  /** Stops listening and removes `handover.json` when it is still this listener's. */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 (a free port) for scenes the Blender add-on hands to the running app, and
 * writes `handover.json` (0600) with the address and a random secret. Only `POST /handover` with
 * `Authorization: Bearer <secret>` and a JSON body `{"scene": "<absolute .blend or .zip path>"}` is
 * taken (202); anything else is refused in one line. Requests a browser sends (with an Origin or
 * Sec-Fetch-Site header) are refused, so no web page can use it, and the secret's file is readable by
 * this user only, so no other user can.
 */
export async function startHandoverListener(options: HandoverOptions): Promise<HandoverListener> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  let port = 0;
  const server = createServer((request, response) => {
    handle(request, response, { port, token, deliver: options.deliver, progress: options.progress ?? null }).catch(() => response.destroy());
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  port = await listen(server);
  const info: HandoverInfo = { version: 1, url: `http://127.0.0.1:${port}${HANDOVER_PATH}`, token, pid: options.pid ?? process.pid };
  let file: string;
  try {
    file = await writeHandoverFile(options.configDir, info);
  } catch (error) {
    await closeServer(server);
    throw error;
  }
  return {
    info,
    file,
    close: async () => {
      await closeServer(server);
      await removeOwnHandoverFile(options.configDir, token).catch(() => false);
    },
  };
}

/** Answers one request: the head's checks, the capped body, the scene on disk, then the app. */
async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  context: { port: number; token: string; deliver: HandoverOptions['deliver']; progress: HandoverOptions['progress'] | null },
): Promise<void> {
  const h = request.headers;
  const head = { method: request.method, url: request.url, host: h.host, origin: h.origin, fetchSite: one(h['sec-fetch-site']), authorization: h.authorization, contentType: h['content-type'] };
  const follow = checkFollowHead(head, context);
  if (follow) {
    if ('status' in follow) return refuse(request, response, follow);
    const seen = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('seenPreview');
    const found = context.progress ? await context.progress(follow.submissionId, seen) : null;
    if (!found) return refuse(request, response, { status: 404, error: 'Renderdrop does not know that submission.' });
    request.resume();
    return send(response, 200, found);
  }
  const refusal = checkHandoverHead(head, context);
  if (refusal) return refuse(request, response, refusal);
  const body = await readCapped(request, MAX_HANDOVER_BYTES);
  if (body === null) return refuse(request, response, { status: 413, error: 'The body is too large.' });
  const parsed = sceneFromBody(body);
  if ('status' in parsed) return refuse(request, response, parsed);
  const file = await stat(parsed.scene).catch(() => null);
  if (!file?.isFile()) return refuse(request, response, { status: 400, error: 'The scene file does not exist.' });
  let outcome: HandoverOutcome;
  try {
    outcome = await context.deliver(parsed.scene);
  } catch (error) {
    outcome = { accepted: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (!outcome.accepted) return refuse(request, response, { status: 422, error: outcome.error });
  send(response, 202, { accepted: true, ...(outcome.submissionId ? { submissionId: outcome.submissionId } : {}) });
}

/** The body as text, or null once it passes `limit` bytes (the rest is not read). */
function readCapped(request: IncomingMessage, limit: number): Promise<string | null> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(null);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.removeAllListeners('data');
        request.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(null));
  });
}

function refuse(request: IncomingMessage, response: ServerResponse, refusal: HandoverRefusal): void {
  send(response, refusal.status, { accepted: false, error: refusal.error }, true);
  request.resume();
}

function send(response: ServerResponse, status: number, body: object, close = false): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(text);
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
