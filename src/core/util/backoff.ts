/** Shape of an exponential backoff: first delay, ceiling. */
export interface BackoffOptions {
  baseDelayMs: number;
  capDelayMs: number;
}

/**
 * Delay before retry number `attempt` (0 for the first retry): exponential with full jitter, i.e. a
 * uniform pick between 0 and min(cap, base * 2^attempt). `random` returns a number in [0, 1).
 */
export function fullJitterDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.capDelayMs, options.baseDelayMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds: delta-seconds or an HTTP date relative to
 * `now`. Null when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined | null, now: number): number | null {
  if (value === undefined || value === null) return null;
  const text = value.trim();
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
