import { countOf } from '../../shared/text';
import { open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { UPLOAD_CONTENT_TYPES, type FileType, type UploadTarget } from '../../shared/api';
import { AbortError, errorCode, errorReason, TransferError } from '../errors';
import { STORAGE_HEADERS, isTransientNetworkError, looksExpired, readSmallBody, transportFor } from '../transfer/http-transport';
import { ProgressMeter, type TransferProgress } from '../transfer/progress-meter';
import { abortableSleep, throwIfAborted } from '../util/abortable-sleep';
import { fullJitterDelay, parseRetryAfter } from '../util/backoff';
import { systemClock, type Clock, type Sleep } from '../util/clock';

/** What to upload, where, and how to behave. */
export interface UploadOptions {
  filePath: string;
  /** Exact size in bytes (from preflight); sent as Content-Length. */
  size: number;
  fileType: FileType;
  target: UploadTarget;
  /**
   * Asked for a fresh upload target when the URL expired. Without it an expired URL fails the upload.
   * The caller records the new slug.
   */
  refreshTarget?: () => Promise<UploadTarget>;
  onProgress?: (progress: TransferProgress) => void;
  signal?: AbortSignal;
  clock?: Clock;
  sleep?: Sleep;
  random?: () => number;
  /** Attempts of the whole PUT after dropped connections, 5xx and 429 (default 4). */
  maxAttempts?: number;
  /** Fresh targets asked for at most (default 3). */
  maxTargetRefreshes?: number;
  /** Read size from disk (default 1 MiB); memory use is two of these whatever the file size. */
  chunkBytes?: number;
  progressIntervalMs?: number;
  /** A URL this close to `expiresAt` counts as expired (default 5 s). */
  expiryMarginMs?: number;
  /** Idle time after which a stalled connection is dropped (default 60 s). */
  idleTimeoutMs?: number;
}

/** A finished upload: the target that received the bytes (its slug creates the job). */
export interface UploadResult {
  target: UploadTarget;
  bytes: number;
  attempts: number;
  durationMs: number;
}

type Outcome = { kind: 'response'; status: number; body: string; retryAfter?: string } | { kind: 'network'; error: Error };

/**
 * Sends a file to a presigned URL in one streamed PUT with its exact Content-Length, the matching
 * Content-Type and no Authorization header, reporting throttled progress. Retries the whole PUT after
 * a dropped connection, asks for a fresh target when the URL expired, stops at once on abort.
 */
export async function uploadFile(options: UploadOptions): Promise<UploadResult> {
  const clock = options.clock ?? systemClock;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const maxAttempts = options.maxAttempts ?? 4;
  const maxRefreshes = options.maxTargetRefreshes ?? 3;
  const margin = options.expiryMarginMs ?? 5_000;
  const started = clock.now();
  const meter = new ProgressMeter({ clock, total: options.size, intervalMs: options.progressIntervalMs ?? 250 });
  let target = options.target;
  let attempts = 0;
  let failures = 0;
  let refreshes = 0;

  const refresh = async (reason: string) => {
    if (!options.refreshTarget) {
      throw new TransferError(`The upload URL ${reason}, and no fresh one could be requested. Submit the file again.`, { code: 'upload-url-expired' });
    }
    if (refreshes >= maxRefreshes) {
      throw new TransferError(
        `The upload URL ${reason} again after ${refreshes} fresh ones: the server's upload URLs do not last long enough for this file. Try again; if it persists, tell the server's operator.`,
        { code: 'upload-url-expired' },
      );
    }
    refreshes++;
    target = await options.refreshTarget();
    if (isExpired(target, clock.now(), 0)) throw expiredOnArrival(target);
  };

  for (;;) {
    throwIfAborted(options.signal);
    if (isExpired(target, clock.now(), margin)) {
      await refresh('has expired');
      continue;
    }
    attempts++;
    meter.reset();
    const outcome = await putOnce(target.uploadUrl, options, meter);
    if (outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300) {
      options.onProgress?.(meter.finish());
      return { target, bytes: options.size, attempts, durationMs: clock.now() - started };
    }
    if (outcome.kind === 'response' && outcome.status === 403 && (looksExpired(outcome.body) || isExpired(target, clock.now(), margin))) {
      await refresh('expired (403)');
      continue;
    }
    const retryable =
      outcome.kind === 'network'
        ? isTransientNetworkError(outcome.error)
        : (outcome.status >= 500 && !isServerDiskFull(outcome)) || outcome.status === 408 || outcome.status === 429;
    if (!retryable || ++failures >= maxAttempts) throw finalError(outcome, attempts);
    const asked = outcome.kind === 'response' ? parseRetryAfter(outcome.retryAfter, clock.now()) : null;
    await sleep(asked ?? fullJitterDelay(failures - 1, { baseDelayMs: 1_000, capDelayMs: 30_000 }, random), options.signal);
  }
}

function isExpired(target: UploadTarget, now: number, marginMs: number): boolean {
  const at = Date.parse(target.expiresAt);
  return !Number.isNaN(at) && now >= at - marginMs;
}

/** A fresh upload URL whose `expiresAt` had already passed when it arrived: the server's clock or the server is at fault. */
function expiredOnArrival(target: UploadTarget): TransferError {
  return new TransferError(
    `The upload URL had already expired when the server sent it (it says it expires ${target.expiresAt}). The server's clock is wrong or the server is at fault; try again later, and tell the server's operator if it persists.`,
    { code: 'upload-url-expired-on-arrival' },
  );
}

function finalError(outcome: Outcome, attempts: number): TransferError {
  if (outcome.kind === 'network') {
    const code = errorCode(outcome.error);
    return new TransferError(`The upload failed after ${countOf(attempts, 'attempt')}: the connection broke (${code ?? outcome.error.message}). Check the network and submit again.`, {
      code: code ?? 'network',
    });
  }
  if (isServerDiskFull(outcome)) {
    return new TransferError(
      `The server ran out of disk space and could not store the file (${outcome.status}). Nothing is wrong with your file: once space is freed on the server (ask whoever runs it), try again.`,
      { status: outcome.status, code: 'server-disk-full' },
    );
  }
  const said = outcome.body.trim() === '' ? '' : `: ${outcome.body.trim().slice(0, 200)}`;
  return new TransferError(`The storage refused the upload (${outcome.status}${said}). Submit the file again; if it persists, check the server.`, {
    status: outcome.status,
  });
}

/** The storage answered that its disk is full: 507, or another 5xx whose body says so. */
function isServerDiskFull(outcome: Extract<Outcome, { kind: 'response' }>): boolean {
  return outcome.status === 507 || (outcome.status >= 500 && /insufficient[_ ]storage|disk (space|is full)|no space left/i.test(outcome.body));
}

/**
 * One PUT of the file. Two reusable buffers alternate: the next chunk is read from disk while the
 * previous one is written to the socket, so memory stays at two chunks and no garbage is made per
 * chunk whatever the file size. A buffer is refilled only once its previous write has completed, and
 * sending stops for good as soon as the storage answers (an early answer is a refusal, and the
 * request is then destroyed rather than left to drain the rest of the file).
 *
 * This is the one request of core that does not go through got, on purpose: `npm run bench -- upload
 * --sizes=1G --runs=3`, same machine and load, measured got's stream PUT (a file stream piped into
 * `got.stream.put`) at 199 MiB/s, 0.48 of curl, 0.93 s CPU per GiB and 129 MB peak RSS, against
 * 488 MiB/s, 1.15 of curl, 0.38 s CPU per GiB and 93 MB for this one. Downloads and API calls use got.
 */
function putOnce(url: string, options: UploadOptions, meter: ProgressMeter): Promise<Outcome> {
  return new Promise<Outcome>((resolve, reject) => {
    const parsed = new URL(url);
    const request = transportFor(parsed).request(parsed, {
      method: 'PUT',
      agent: false,
      headers: { ...STORAGE_HEADERS, 'content-length': String(options.size), 'content-type': UPLOAD_CONTENT_TYPES[options.fileType] },
    });
    let settled = false;
    let sending = true;
    let markStopped: () => void = () => undefined;
    const stopped = new Promise<void>((done) => (markStopped = done));
    const stopSending = () => {
      sending = false;
      markStopped();
    };
    const finish = (outcome: Outcome | Error) => {
      if (settled) return;
      settled = true;
      stopSending();
      options.signal?.removeEventListener('abort', onAbort);
      if (outcome instanceof Error) {
        request.destroy();
        reject(outcome);
        return;
      }
      const accepted = outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300;
      if (!accepted || !request.writableEnded) request.destroy();
      resolve(outcome);
    };
    const onAbort = () => finish(new AbortError('Upload stopped.'));
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.setTimeout(options.idleTimeoutMs ?? 60_000, () => {
      finish({ kind: 'network', error: Object.assign(new Error('The upload stalled.'), { code: 'ETIMEDOUT' }) });
    });
    request.on('error', (error) => finish({ kind: 'network', error }));
    request.on('response', (response: IncomingMessage) => {
      stopSending();
      const retryAfter = response.headers['retry-after'];
      void readSmallBody(response).then((body) =>
        finish({ kind: 'response', status: response.statusCode ?? 0, body, ...(retryAfter !== undefined ? { retryAfter } : {}) }),
      );
    });
    const pump = async () => {
      let handle;
      try {
        handle = await open(options.filePath, 'r');
      } catch (error) {
        throw readFailure(error);
      }
      try {
        const chunk = options.chunkBytes ?? 1024 * 1024;
        const buffers = [Buffer.allocUnsafe(chunk), Buffer.allocUnsafe(chunk)];
        const inFlight: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
        let position = 0;
        for (let k = 0; position < options.size; k++) {
          const slot = k % 2;
          await Promise.race([inFlight[slot], stopped]);
          if (!sending) return;
          const buffer = buffers[slot]!;
          let bytesRead: number;
          try {
            ({ bytesRead } = await handle.read(buffer, 0, Math.min(chunk, options.size - position), position));
          } catch (error) {
            throw readFailure(error);
          }
          if (bytesRead === 0) {
            throw new TransferError(`The file changed during the upload (${position} of ${options.size} bytes read). Save it, then submit it again.`, { code: 'file-changed' });
          }
          position += bytesRead;
          if (!sending) return;
          inFlight[slot] = new Promise<void>((written) => request.write(buffer.subarray(0, bytesRead), () => written()));
          const event = meter.add(bytesRead);
          if (event) options.onProgress?.(event);
        }
        await Promise.race([Promise.all(inFlight), stopped]);
        if (sending) request.end();
      } finally {
        await handle.close();
      }
    };
    pump().catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
  });
}

function readFailure(error: unknown): TransferError {
  const reason = errorReason(error);
  return new TransferError(`The file could not be read during the upload (${reason}). Check the disk and submit again.`, { code: 'read-failed' });
}
