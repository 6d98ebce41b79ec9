import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { errorCode } from '../errors';
import { USER_AGENT } from '../version';

/** The node module to talk to a URL with (the upload's raw PUT; see `putOnce` in upload.ts for why). */
export function transportFor(url: URL): typeof http | typeof https {
  if (url.protocol === 'https:') return https;
  if (url.protocol === 'http:') return http;
  throw new Error(`Unsupported URL scheme ${url.protocol}`);
}

/** Default headers of storage requests (never an Authorization header). */
export const STORAGE_HEADERS = { 'user-agent': USER_AGENT } as const;

/** Reads at most `limit` bytes of a response body as text, discarding the rest. */
export function readSmallBody(response: Readable, limit = 16 * 1024): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    response.on('data', (chunk: Buffer) => {
      if (length < limit) {
        chunks.push(chunk);
        length += chunk.length;
      }
    });
    response.on('end', () => resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8')));
    response.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Error codes of a connection that broke or stalled, worth trying again. */
export function isTransientNetworkError(error: unknown): boolean {
  const code = errorCode(error);
  if (code !== undefined) {
    return ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_SOCKET'].includes(code);
  }
  const message = error instanceof Error ? error.message : '';
  return /socket hang up|aborted|premature/i.test(message);
}

/** Whether a storage 403 body says the signed URL expired or its signature no longer holds. */
export function looksExpired(body: string): boolean {
  return /expire|signature|request has expired|token/i.test(body);
}
