import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import got, { type Agents } from 'got';
import { basename, dirname } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AbortError, errorCode, errorReason, TransferError } from '../errors';
import { STORAGE_HEADERS, isTransientNetworkError, looksExpired, readSmallBody } from '../transfer/http-transport';
import { fullJitterDelay, parseRetryAfter } from '../util/backoff';
import type { Clock, Sleep } from '../util/clock';

/** Thrown when a signed URL no longer works; the caller gets fresh URLs and tries again. */
export class ExpiredUrlError extends Error {
  constructor(readonly status: number) {
    super(`Signed URL expired (${status})`);
  }
}

/** How one file is fetched. */
export interface FileDownloadOptions {
  /** The current URL of the file (it changes when URLs are refreshed). */
  url: () => string;
  /** Final path; bytes go to `<path>.part` first. */
  path: string;
  /** Connection pools to share between files (keep-alive). */
  agent?: Agents;
  signal?: AbortSignal;
  sleep: Sleep;
  clock: Clock;
  random: () => number;
  /** Called with every chunk's size (negative when a partial file is discarded). */
  onBytes: (count: number) => void;
  /** Called once the size of the file is known. */
  onTotal?: (total: number) => void;
  /** Attempts after broken connections, 5xx and 429 (default 5). */
  maxAttempts?: number;
  /** Idle time after which a stalled response is dropped (default 60 s). */
  idleTimeoutMs?: number;
}

/** How a file ended up in place. */
export type FileDownloadResult = { outcome: 'downloaded' | 'skipped'; bytes: number };

/**
 * Fetches one file into `<path>.part`, resuming with `Range` and `If-Range` after an interruption
 * (the ETag is kept in `<path>.part.etag`, so a later process resumes only the same version of the
 * file), checks its size against Content-Length / Content-Range and renames it into place. A final
 * file of the right size is left alone. Throws ExpiredUrlError on a 403 that looks like an expired
 * signature so the caller can refresh the URL, and a TransferError at once when the disk refuses.
 */
export async function downloadFile(options: FileDownloadOptions): Promise<FileDownloadResult> {
  const partPath = `${options.path}.part`;
  const etagPath = `${partPath}.etag`;
  await onDisk(options.path, mkdir(dirname(options.path), { recursive: true }));
  const existing = await sizeOf(options.path);
  if (existing !== null) {
    const total = await probeSize(options);
    if (total === existing) return { outcome: 'skipped', bytes: existing };
  }
  const maxAttempts = options.maxAttempts ?? 5;
  let etag = await readEtag(etagPath);
  let failures = 0;
  for (;;) {
    if (options.signal?.aborted) throw new AbortError('Download stopped.');
    const have = (await sizeOf(partPath)) ?? 0;
    const headers: Record<string, string> = { ...STORAGE_HEADERS };
    if (have > 0) {
      headers.range = `bytes=${have}-`;
      if (etag) headers['if-range'] = etag;
    }
    let response: Fetched;
    try {
      response = await get(options, headers);
    } catch (error) {
      if (options.signal?.aborted) throw new AbortError('Download stopped.');
      if (!isTransientNetworkError(error) || ++failures >= maxAttempts) throw networkFailure(options.path, error);
      await options.sleep(fullJitterDelay(failures - 1, { baseDelayMs: 250, capDelayMs: 10_000 }, options.random), options.signal);
      continue;
    }
    const status = response.status;
    if (status === 403 || status === 401) {
      const body = await readSmallBody(response.body);
      if (status === 403 && (looksExpired(body) || body.trim() === '' || /denied/i.test(body))) throw new ExpiredUrlError(status);
      throw new TransferError(`The server refused the download of ${options.path} (${status}). Check the API key and try again.`, { status });
    }
    if (status === 416 && have > 0) {
      await readSmallBody(response.body);
      const total = totalFromContentRange(response.headers['content-range']);
      if (total === have) return finish(options, partPath, have);
      await discard(options, partPath, have);
      etag = undefined;
      continue;
    }
    if (status === 429 || status === 408 || status >= 500) {
      await readSmallBody(response.body);
      if (++failures >= maxAttempts) throw new TransferError(`The download of ${options.path} kept failing (${status}). Try again later.`, { status });
      const asked = parseRetryAfter(response.headers['retry-after'], options.clock.now());
      await options.sleep(asked ?? fullJitterDelay(failures - 1, { baseDelayMs: 500, capDelayMs: 15_000 }, options.random), options.signal);
      continue;
    }
    if (status !== 200 && status !== 206) {
      const body = await readSmallBody(response.body);
      throw new TransferError(`The download of ${options.path} failed (${status}${body.trim() ? `: ${body.trim().slice(0, 200)}` : ''}).`, { status });
    }
    const served = header(response, 'etag');
    let start = 0;
    let total: number | null;
    if (status === 206) {
      const range = parseContentRange(response.headers['content-range']);
      if (range === null || range.start !== have || (etag !== undefined && served !== undefined && served !== etag)) {
        response.body.destroy();
        await discard(options, partPath, have);
        etag = undefined;
        continue;
      }
      start = range.start;
      total = range.total;
    } else {
      if (have > 0) await discard(options, partPath, have);
      const length = Number(response.headers['content-length']);
      total = Number.isFinite(length) && response.headers['content-length'] !== undefined ? length : null;
    }
    if (served !== etag) {
      etag = served;
      try {
        await writeEtag(options.path, etagPath, etag);
      } catch (error) {
        response.body.destroy();
        throw error;
      }
    }
    if (total !== null) options.onTotal?.(total);
    try {
      await writeBody(response.body, partPath, start > 0, options);
    } catch (error) {
      if (options.signal?.aborted) throw new AbortError('Download stopped.');
      if (error instanceof TransferError) throw error;
      if (++failures >= maxAttempts) throw networkFailure(options.path, error);
      await options.sleep(fullJitterDelay(failures - 1, { baseDelayMs: 250, capDelayMs: 10_000 }, options.random), options.signal);
      continue;
    }
    const size = (await sizeOf(partPath)) ?? 0;
    if (total === null || size === total) return finish(options, partPath, size);
    if (size > total) {
      await discard(options, partPath, size);
      continue;
    }
    if (++failures >= maxAttempts) {
      throw new TransferError(`The download of ${options.path} stopped at ${size} of ${total} bytes, ${failures} times. Try again later.`, { code: 'short-body' });
    }
  }
}

async function finish(options: FileDownloadOptions, partPath: string, size: number): Promise<FileDownloadResult> {
  await onDisk(options.path, rename(partPath, options.path));
  await unlink(`${partPath}.etag`).catch(() => undefined);
  return { outcome: 'downloaded', bytes: size };
}

async function readEtag(etagPath: string): Promise<string | undefined> {
  try {
    const text = (await readFile(etagPath, 'utf8')).trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

async function writeEtag(path: string, etagPath: string, etag: string | undefined) {
  if (etag === undefined) await unlink(etagPath).catch(() => undefined);
  else await onDisk(path, writeFile(etagPath, etag, 'utf8'));
}

async function discard(options: FileDownloadOptions, partPath: string, have: number) {
  if (have > 0) options.onBytes(-have);
  await truncate(partPath, 0).catch(() => undefined);
}

async function writeBody(response: Readable, partPath: string, append: boolean, options: FileDownloadOptions): Promise<void> {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      options.onBytes(chunk.length);
      callback(null, chunk);
    },
  });
  const out = createWriteStream(partPath, { flags: append ? 'a' : 'w', highWaterMark: 1024 * 1024 });
  let diskError: NodeJS.ErrnoException | null = null;
  out.on('error', (error: NodeJS.ErrnoException) => {
    if (isFileSystemError(error)) diskError ??= error;
  });
  try {
    await pipeline(response, counter, out, options.signal ? { signal: options.signal } : {});
  } catch (error) {
    if (diskError !== null && !options.signal?.aborted) throw diskFailure(options.path, diskError);
    throw error;
  }
}

/** Whether an error the .part stream reported came from the file system (not passed on from the network). */
function isFileSystemError(error: NodeJS.ErrnoException): boolean {
  return ['open', 'write', 'writev', 'close', 'fsync'].includes(error.syscall ?? '') && !isTransientNetworkError(error);
}

/** Runs a file system step of the download, turning its failure into a TransferError about the folder. */
async function onDisk<T>(path: string, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    throw diskFailure(path, error);
  }
}

/** A local disk failure (full, read-only, no permission, something in the way): retrying cannot help. */
function diskFailure(path: string, error: unknown): TransferError {
  const dir = dirname(path);
  const code = errorCode(error) ?? 'EIO';
  const inTheWay = error instanceof Error && 'path' in error && typeof error.path === 'string' ? error.path : null;
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new TransferError(`Not enough space in ${dir} to download ${basename(path)}. Free some space, then run the download again; it resumes.`, { code: 'disk-full' });
    case 'EACCES':
    case 'EPERM':
      return new TransferError(`Cannot write to ${dir}: permission denied. Choose another download folder or change its permissions.`, { code: 'disk-denied' });
    case 'EROFS':
      return new TransferError(`Cannot write to ${dir}: the disk is read-only. Choose another download folder.`, { code: 'disk-read-only' });
    case 'EISDIR':
    case 'ENOTDIR':
    case 'EEXIST':
    case 'ENOTEMPTY':
      return new TransferError(
        `Cannot write to ${dir}: ${inTheWay ? `"${inTheWay}"` : `a file or folder on the way to ${basename(path)}`} is in the way (${code}). Move it aside, then run the download again.`,
        { code: 'disk-in-the-way' },
      );
    default:
      return new TransferError(`Cannot write to ${dir} (${code}). Check the disk, then run the download again; it resumes.`, { code: 'disk-error' });
  }
}

/** A response whose body is still to be read. */
interface Fetched {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/**
 * One GET through got's stream API: no retries or redirects of its own (the loop above decides),
 * bytes as stored (no decompression, so sizes match Content-Length), the caller's connection pool,
 * and the connection dropped after `idleTimeoutMs` without data.
 */
function get(options: FileDownloadOptions, headers: Record<string, string>): Promise<Fetched> {
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
async function probeSize(options: FileDownloadOptions): Promise<number | null> {
  let response: Fetched;
  try {
    response = await get(options, { ...STORAGE_HEADERS, range: 'bytes=0-0' });
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

function parseContentRange(value: string | undefined): { start: number; end: number; total: number | null } | null {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (!match) return null;
  return { start: Number(match[1]), end: Number(match[2]), total: match[3] === '*' ? null : Number(match[3]) };
}

function totalFromContentRange(value: string | undefined): number | null {
  const match = /\/(\d+)\s*$/.exec(value ?? '');
  return match ? Number(match[1]) : null;
}

function header(response: Fetched, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

function networkFailure(path: string, error: unknown): TransferError {
  return new TransferError(`The download of ${path} failed: the connection broke (${errorReason(error)}). Run the download again; it resumes.`, {
    code: errorCode(error) ?? 'network',
  });
}
