import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import got, { type Agents } from 'got';
import { STORAGE_HEADERS } from '../transfer';
import { ExpiredUrlError } from './expired-url-error';

/** Where and how to GET a stored file. */
export interface StorageGetOptions {
  /** The current URL of the file (it changes when URLs are refreshed). */
  url: () => string;
  /** Connection pools to share between files (keep-alive). */
  agent?: Agents;
  signal?: AbortSignal;
  /** Idle time after which a stalled response is dropped (default 60 s). */
  idleTimeoutMs?: number;
}

/** A response whose body is still to be read. */
export interface StorageResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** A byte range a 206 response says it holds. */
export interface ContentRange {
  start: number;
  end: number;
  /** Size of the whole file; null when the server does not say. */
  total: number | null;
}

/**
 * One GET through got's stream API: no retries or redirects of its own (the download loop decides),
 * bytes as stored (no decompression, so sizes match Content-Length), the caller's connection pool,
 * and the connection dropped after `idleTimeoutMs` without data.
 */
export function storageGet(options: StorageGetOptions, headers: Record<string, string>): Promise<StorageResponse> {
  return new Promise((resolve, reject) => {
    const body = got.stream(options.url(), {
      headers,
      throwHttpErrors: false,
      retry: { limit: 0 },
      followRedirect: false,
      decompress: false,
      timeout: { socket: options.idleTimeoutMs ?? 60_000 },
      ...(options.agent ? { agent: options.agent } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    body.once('response', (response: { statusCode: number; headers: IncomingHttpHeaders }) => resolve({ status: response.statusCode, headers: response.headers, body }));
    body.once('error', reject);
  });
}

/** Size of the complete file on the server, asked with a one-byte range; null when unknown. */
export async function probeSize(options: StorageGetOptions): Promise<number | null> {
  let response: StorageResponse;
  try {
    response = await storageGet(options, { ...STORAGE_HEADERS, range: 'bytes=0-0' });
  } catch {
    return null;
  }
  const status = response.status;
  const length = response.headers['content-length'];
  response.body.destroy();
  if (status === 206) return totalFromContentRange(response.headers['content-range']);
  if (status === 200 && length !== undefined) return Number(length);
  if (status === 403) throw new ExpiredUrlError(status);
  return null;
}

/** The range of a `Content-Range: bytes start-end/total` header; null when it is not one. */
export function parseContentRange(value: string | undefined): ContentRange | null {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (!match) return null;
  return { start: Number(match[1]), end: Number(match[2]), total: match[3] === '*' ? null : Number(match[3]) };
}

/** The total size at the end of a `Content-Range` header; null when it gives none. */
export function totalFromContentRange(value: string | undefined): number | null {
  const match = /\/(\d+)\s*$/.exec(value ?? '');
  return match ? Number(match[1]) : null;
}

/** The first value of a response header. */
export function responseHeader(response: StorageResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The size a 200 response announces; null when it has no usable Content-Length. */
export function contentLength(response: StorageResponse): number | null {
  const length = Number(response.headers['content-length']);
  return Number.isFinite(length) && response.headers['content-length'] !== undefined ? length : null;
}
