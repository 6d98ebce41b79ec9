import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Db, verifyKey } from '../store';
import { HttpError } from '../http-error';
import type { RequestLimiter } from './rate-limit';

function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1]! : null;
}

/**
 * What every API route shares: bodies are JSON only (anything else is 415), the API key is checked
 * (401 with `WWW-Authenticate: Bearer`), and each request counts against its key's rate limit, or its
 * address's when the key is missing or wrong (429 with `Retry-After`). The key check and the limit run
 * before the body is read.
 */
export function guardApi(api: FastifyInstance, db: Db, limiter: RequestLimiter): void {
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpError(400, 'invalid_json', 'The request body is not valid JSON.'), undefined);
    }
  });

  api.addHook('onRequest', async (request, reply) => {
    const token = bearer(request);
    const key = token ? verifyKey(db, token) : null;
    if (key) request.apiKey = key;
    const verdict = await limiter(request);
    if (!verdict.allowed) {
      throw new HttpError(429, 'rate_limited', `Too many requests; retry in ${verdict.retryAfterSeconds} s.`, { 'Retry-After': String(verdict.retryAfterSeconds) });
    }
    if (!key) {
      reply.header('WWW-Authenticate', token ? 'Bearer realm="renderdrop", error="invalid_token"' : 'Bearer realm="renderdrop"');
      throw new HttpError(401, 'unauthorized', token ? 'The API key is not valid (unknown or revoked).' : 'Missing API key: send "Authorization: Bearer <key>".');
    }
    reply.header('X-RateLimit-Limit', String(verdict.limit));
    reply.header('X-RateLimit-Remaining', String(verdict.remaining));
  });
}
