import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** How many requests fit in a window. */
export interface RateLimitSpec {
  limit: number;
  windowMs: number;
}

/** What the limiter says about one request. */
export type RateVerdict = { allowed: true; limit: number; remaining: number } | { allowed: false; retryAfterSeconds: number };

/** Counts one request against its bucket: its API key's, or its address's when it has no valid key. */
export type RequestLimiter = (request: FastifyRequest) => Promise<RateVerdict>;

/** Requests without a valid key allowed per address and window (login checks, typos): small. */
export const UNAUTHENTICATED_LIMIT = 60;

/**
 * Register @fastify/rate-limit on `app` (not on every route: the API guard calls the limiter after it
 * has identified the key) and return the limiter. Requests with a valid key count against that key's
 * bucket of `spec.limit`; requests with a missing or wrong key count against their address's bucket of
 * `unauthenticatedLimit`, so guessing keys is slowed down as well.
 */
export async function createRequestLimiter(app: FastifyInstance, spec: RateLimitSpec, unauthenticatedLimit = UNAUTHENTICATED_LIMIT): Promise<RequestLimiter> {
  await app.register(rateLimit, { global: false });
  const take = app.createRateLimit({
    timeWindow: spec.windowMs,
    keyGenerator: (request) => (request.apiKey ? `key:${request.apiKey.id}` : `address:${request.ip}`),
    max: (_request, bucket) => (bucket.startsWith('key:') ? spec.limit : unauthenticatedLimit),
  });
  return async (request) => {
    const result = await take(request);
    if (result.isAllowed) return { allowed: true, limit: spec.limit, remaining: spec.limit };
    if (result.isExceeded) return { allowed: false, retryAfterSeconds: Math.max(1, result.ttlInSeconds) };
    return { allowed: true, limit: result.max, remaining: result.remaining };
  };
}

/** Parse "600/60s", "100/1m" or "10/1000ms" into a limit and window. */
export function parseRateLimit(spec: string): RateLimitSpec {
  const m = /^(\d+)\/(\d+)(ms|s|m)$/.exec(spec.trim());
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) {
    throw new Error(`Rate limit "${spec}" is not of the form <requests>/<window>, for example 600/60s or 100/1m.`);
  }
  const unit = m[3] === 'ms' ? 1 : m[3] === 's' ? 1000 : 60_000;
  return { limit: Number(m[1]), windowMs: Number(m[2]) * unit };
}
