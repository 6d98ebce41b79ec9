/** How hard the API client tries before giving up. */
export interface RetryPolicy {
  /** Retries after a 429, whatever the operation. */
  rateLimitRetries: number;
  /** Retries after a 5xx or a network failure, for operations that are safe to repeat. */
  transientRetries: number;
  /** First backoff step. */
  baseDelayMs: number;
  /** Ceiling of one backoff wait. */
  capDelayMs: number;
  /**
   * Longest `Retry-After` waited out (abortably, told to `onRetry`); a longer one fails the call at once
   * with a RateLimitedError saying when to try again.
   */
  maxRetryAfterMs: number;
}

/** Defaults: patient with rate limits, a few tries for transient failures. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  rateLimitRetries: 8,
  transientRetries: 4,
  baseDelayMs: 500,
  capDelayMs: 30_000,
  maxRetryAfterMs: 15 * 60_000,
};

/**
 * How an operation may be repeated: `read` and `idempotent` retry on 5xx and network failures;
 * `write` only when the request certainly never reached the server.
 */
export type RetrySafety = 'read' | 'idempotent' | 'write';

/** Network error codes meaning the request was never delivered, so even a write may be sent again. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL']);

/** Whether a failure with this network code may have reached the server. */
export function mayHaveBeenApplied(code: string | undefined): boolean {
  return code === undefined || !NEVER_SENT_CODES.has(code);
}

/** Why the client is about to wait and try again; given to `onRetry` listeners. */
export interface RetryInfo {
  operation: string;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  reason: 'rate-limited' | 'server-error' | 'network';
  status?: number;
}
