import { mkdir, rename, truncate, unlink, utimes } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AbortError, errorCode, errorReason, TransferError } from '../errors';
import { isTransientNetworkError, looksExpired, readSmallBody, STORAGE_HEADERS } from '../transfer';
import { type Clock, fullJitterDelay, parseRetryAfter, type Sleep } from '../util';
import { onDisk } from './disk-failure';
import { ExpiredUrlError } from './expired-url-error';
import { readEtag, sizeOf, writeBody, writeEtag } from './part-file';
import {
  contentLength,
  parseContentRange,
  probeSize,
  responseHeader,
  storageGet,
  totalFromContentRange,
  type StorageGetOptions,
  type StorageResponse,
} from './storage-get';


/** How one file is fetched. */
export interface FileDownloadOptions extends StorageGetOptions {
  /** Final path; bytes go to `<path>.part` first. */
  path: string;
  sleep: Sleep;
  clock: Clock;
  random: () => number;
  /** Called with every chunk's size (negative when a partial file is discarded). */
  onBytes: (count: number) => void;
  /** Called once the size of the file is known. */
  onTotal?: (total: number) => void;
  /** Attempts after broken connections, 5xx and 429 (default 5). */
  maxAttempts?: number;
  /** Fetch it even when a final file is there (the server's file changed since). */
  replace?: boolean;
  /** When the server's file was last written: the final file gets it as its own modification time. */
  mtimeMs?: number;
}

/** How a file ended up in place. */
export type FileDownloadResult = { outcome: 'downloaded' | 'skipped'; bytes: number };

/** What the download of one file keeps from one attempt to the next. */
interface DownloadState {
  readonly options: FileDownloadOptions;
  readonly partPath: string;
  readonly etagPath: string;
  readonly maxAttempts: number;
  /** The ETag the `.part` bytes came from, when known. */
  etag: string | undefined;
  /** Attempts that failed so far. */
  failures: number;
}

/** Where the body of a usable response goes in the file. */
interface BodyPlacement {
  /** Offset of its first byte (the `.part` size when resuming). */
  start: number;
  /** Size of the whole file; null when the server does not say. */
  total: number | null;
}

/** An attempt ended without the file: try again. */
const AGAIN = 'again';
type AttemptResult = FileDownloadResult | typeof AGAIN;

const CONNECTION_BACKOFF = { baseDelayMs: 250, capDelayMs: 10_000 };
const SERVER_BACKOFF = { baseDelayMs: 500, capDelayMs: 15_000 };

/**
 * Fetches one file into `<path>.part`, resuming with `Range` and `If-Range` after an interruption
 * (the ETag is kept in `<path>.part.etag`, so a later process resumes only the same version of the
 * file), checks its size against Content-Length / Content-Range and renames it into place (with the
 * server's modification time when given). A final file of the right size is left alone unless `replace`. Throws ExpiredUrlError on a 403 that looks like an expired
 * signature so the caller can refresh the URL, and a TransferError at once when the disk refuses.
 */
export async function downloadFile(options: FileDownloadOptions): Promise<FileDownloadResult> {
  const partPath = `${options.path}.part`;
  const etagPath = `${partPath}.etag`;
  await onDisk(options.path, mkdir(dirname(options.path), { recursive: true }));
  const existing = options.replace ? null : await sizeOf(options.path);
  if (existing !== null && (await probeSize(options)) === existing) return { outcome: 'skipped', bytes: existing };
  const state: DownloadState = { options, partPath, etagPath, maxAttempts: options.maxAttempts ?? 5, etag: await readEtag(etagPath), failures: 0 };
  for (;;) {
    const result = await attempt(state);
    if (result !== AGAIN) return result;
  }
}

/** One request for the file (or the rest of it) and what its answer leads to. */
async function attempt(state: DownloadState): Promise<AttemptResult> {
  if (state.options.signal?.aborted) throw stopped();
  const have = (await sizeOf(state.partPath)) ?? 0;
  const response = await request(state, have);
  if (response === null) return AGAIN;
  const answered = await answerStatus(state, response, have);
  if (answered !== 'body') return answered;
  const placement = await placeBody(state, response, have);
  if (placement === null) return AGAIN;
  return receiveBody(state, response, placement);
}

/** Sends the GET, asking for the rest of the `.part` file when there is one; null after a broken connection worth retrying. */
async function request(state: DownloadState, have: number): Promise<StorageResponse | null> {
  const headers: Record<string, string> = { ...STORAGE_HEADERS };
  if (have > 0) {
    headers.range = `bytes=${have}-`;
    if (state.etag) headers['if-range'] = state.etag;
  }
  try {
    return await storageGet(state.options, headers);
  } catch (error) {
    if (state.options.signal?.aborted) throw stopped();
    if (!isTransientNetworkError(error)) throw networkFailure(state.options.path, error);
    await afterBrokenConnection(state, error);
    return null;
  }
}

/**
 * What the response's status leads to: `body` when it carries the file (200, 206), else a refusal
 * (thrown), a throttle or server error (waited out), or a range the `.part` file already covers.
 */
async function answerStatus(state: DownloadState, response: StorageResponse, have: number): Promise<AttemptResult | 'body'> {
  const { options } = state;
  const status = response.status;
  if (status === 403 || status === 401) {
    const body = await readSmallBody(response.body);
    if (status === 403 && (looksExpired(body) || body.trim() === '' || /denied/i.test(body))) throw new ExpiredUrlError(status);
    throw new TransferError(`The server refused the download of ${options.path} (${status}). Check the API key and try again.`, { status });
  }
  if (status === 416 && have > 0) {
    await readSmallBody(response.body);
    if (totalFromContentRange(response.headers['content-range']) === have) return finish(state, have);
    await startOver(state, have);
    return AGAIN;
  }
  if (status === 429 || status === 408 || status >= 500) {
    await readSmallBody(response.body);
    if (++state.failures >= state.maxAttempts) throw new TransferError(`The download of ${options.path} kept failing (${status}). Try again later.`, { status });
    const asked = parseRetryAfter(response.headers['retry-after'], options.clock.now());
    await options.sleep(asked ?? fullJitterDelay(state.failures - 1, SERVER_BACKOFF, options.random), options.signal);
    return AGAIN;
  }
  if (status !== 200 && status !== 206) {
    const body = (await readSmallBody(response.body)).trim();
    throw new TransferError(`The download of ${options.path} failed (${status}${body ? `: ${body.slice(0, 200)}` : ''}).`, { status });
  }
  return 'body';
}

/**
 * Where the body goes: after the `.part` bytes when the server resumed the same version of the file
 * there, else from the start (the `.part` bytes are dropped). Records the version's ETag. Null when
 * the server answered a range that does not fit the `.part` file, which is then dropped.
 */
async function placeBody(state: DownloadState, response: StorageResponse, have: number): Promise<BodyPlacement | null> {
  const served = responseHeader(response, 'etag');
  let placement: BodyPlacement;
  if (response.status === 206) {
    const range = parseContentRange(response.headers['content-range']);
    if (range === null || range.start !== have || (state.etag !== undefined && served !== undefined && served !== state.etag)) {
      response.body.destroy();
      await startOver(state, have);
      return null;
    }
    placement = { start: range.start, total: range.total };
  } else {
    if (have > 0) await discard(state, have);
    placement = { start: 0, total: contentLength(response) };
  }
  if (served !== state.etag) {
    state.etag = served;
    try {
      await writeEtag(state.options.path, state.etagPath, served);
    } catch (error) {
      response.body.destroy();
      throw error;
    }
  }
  if (placement.total !== null) state.options.onTotal?.(placement.total);
  return placement;
}

/** Writes the body into the `.part` file and, when the file is then whole, moves it into place. */
async function receiveBody(state: DownloadState, response: StorageResponse, placement: BodyPlacement): Promise<AttemptResult> {
  const { options } = state;
  try {
    await writeBody(response.body, state.partPath, placement.start > 0, options);
  } catch (error) {
    if (options.signal?.aborted) throw stopped();
    if (error instanceof TransferError) throw error;
    await afterBrokenConnection(state, error);
    return AGAIN;
  }
  const size = (await sizeOf(state.partPath)) ?? 0;
  const total = placement.total;
  if (total === null || size === total) return finish(state, size);
  if (size > total) {
    await discard(state, size);
    return AGAIN;
  }
  if (++state.failures >= state.maxAttempts) {
    throw new TransferError(`The download of ${options.path} stopped at ${size} of ${total} bytes, ${state.failures} times. Try again later.`, { code: 'short-body' });
  }
  return AGAIN;
}

/** Counts a broken connection: throws once the attempts are used up, else waits before the next one. */
async function afterBrokenConnection(state: DownloadState, error: unknown): Promise<void> {
  const { options } = state;
  if (++state.failures >= state.maxAttempts) throw networkFailure(options.path, error);
  await options.sleep(fullJitterDelay(state.failures - 1, CONNECTION_BACKOFF, options.random), options.signal);
}

async function finish(state: DownloadState, size: number): Promise<FileDownloadResult> {
  const { path, mtimeMs } = state.options;
  if (mtimeMs !== undefined) await utimes(state.partPath, new Date(), new Date(mtimeMs)).catch(() => undefined);
  await onDisk(path, rename(state.partPath, path));
  await unlink(state.etagPath).catch(() => undefined);
  return { outcome: 'downloaded', bytes: size };
}

/** Drops the `.part` bytes, taking them back from the progress. */
async function discard(state: DownloadState, have: number): Promise<void> {
  if (have > 0) state.options.onBytes(-have);
  await truncate(state.partPath, 0).catch(() => undefined);
}

/** Drops the `.part` bytes and forgets which version of the file they came from. */
async function startOver(state: DownloadState, have: number): Promise<void> {
  await discard(state, have);
  state.etag = undefined;
}

function stopped(): AbortError {
  return new AbortError('Download stopped.');
}

function networkFailure(path: string, error: unknown): TransferError {
  return new TransferError(`The download of ${path} failed: the connection broke (${errorReason(error)}). Run the download again; it resumes.`, {
    code: errorCode(error) ?? 'network',
  });
}
