import { countOf } from '../../shared/text';
import type { FileType, UploadTarget } from '../../shared/api';
import { errorCode, TransferError } from '../errors';
import { isTransientNetworkError, looksExpired, ProgressMeter, type TransferProgress } from '../transfer';
import { abortableSleep, type Clock, fullJitterDelay, parseRetryAfter, type Sleep, systemClock, throwIfAborted } from '../util';
import { putOnce, type PutOutcome } from './put-once';

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

function finalError(outcome: PutOutcome, attempts: number): TransferError {
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
function isServerDiskFull(outcome: Extract<PutOutcome, { kind: 'response' }>): boolean {
  return outcome.status === 507 || (outcome.status >= 500 && /insufficient[_ ]storage|disk (space|is full)|no space left/i.test(outcome.body));
}
