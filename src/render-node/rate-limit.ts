/**
 * Per-key fixed-window request limiter. `take` answers whether one more request fits in the current
 * window and, when not, how many seconds remain until it resets.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number } {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 10_000) this.sweep(t);
    }
    if (w.count >= this.limit) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + this.windowMs - t) / 1000)) };
    }
    w.count++;
    return { allowed: true, remaining: this.limit - w.count };
  }

  private sweep(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
  }
}

/** Parse "600/60s", "100/1m" or "10/1000ms" into a limit and window. */
export function parseRateLimit(spec: string): { limit: number; windowMs: number } {
  const m = /^(\d+)\/(\d+)(ms|s|m)$/.exec(spec.trim());
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) {
    throw new Error(`Rate limit "${spec}" is not of the form <requests>/<window>, for example 600/60s or 100/1m.`);
  }
  const unit = m[3] === 'ms' ? 1 : m[3] === 's' ? 1000 : 60_000;
  return { limit: Number(m[1]), windowMs: Number(m[2]) * unit };
}
