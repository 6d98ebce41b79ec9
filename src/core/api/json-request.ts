import type { IncomingHttpHeaders } from 'node:http';

/**
 * Node's http and https, taken as built-in modules rather than imported: an ES import of node:http
 * evaluates its lazy exports too, which loads Node's whole fetch implementation (about 40 ms at start).
 */
const http = () => process.getBuiltinModule('node:http');
const https = () => process.getBuiltinModule('node:https');

/** One HTTP exchange of the API client: what it sends. */
export interface JsonRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** Sent as a JSON body when given. */
  json?: unknown;
  signal?: AbortSignal;
  /** Whole-exchange limit; past it the request fails with code ETIMEDOUT. */
  timeoutMs: number;
}

/** What came back, the body as text. */
export interface JsonResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Send one request with Node's own http(s) (no redirects followed, no retries: the caller decides),
 * reading the whole answer as UTF-8 text. Network failures reject with the socket's error and its code
 * (ECONNREFUSED, ECONNRESET, …); an abort rejects with the signal's reason.
 */
export function sendJsonRequest(req: JsonRequest): Promise<JsonResponse> {
  return new Promise((resolve, reject) => {
    const body = req.json === undefined ? null : Buffer.from(JSON.stringify(req.json));
    const headers = { ...req.headers, ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}) };
    const send = req.url.protocol === 'https:' ? https().request : http().request;
    const outgoing = send(req.url, { method: req.method, headers, ...(req.signal ? { signal: req.signal } : {}) }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', fail);
      incoming.on('end', () => {
        clearTimeout(timer);
        resolve({ statusCode: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    const timer = setTimeout(() => outgoing.destroy(Object.assign(new Error(`no complete answer within ${req.timeoutMs} ms`), { code: 'ETIMEDOUT' })), req.timeoutMs);
    function fail(error: Error) {
      clearTimeout(timer);
      reject(error);
    }
    outgoing.on('error', fail);
    outgoing.end(body ?? undefined);
  });
}
