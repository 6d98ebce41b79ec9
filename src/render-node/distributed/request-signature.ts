import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable, Transform } from 'node:stream';
import { HttpError } from '../http-error';
import type { WorkerKeys } from '../worker-access';

/** Headers of a worker's signed request: when it stops being valid (Unix seconds), and the signature. */
export const REQUEST_EXPIRES_HEADER = 'x-renderdrop-expires';
export const REQUEST_SIGNATURE_HEADER = 'x-renderdrop-signature';
/** Header of a worker's signed request with a body: the body's SHA-256 (hex), which the signature covers. */
export const REQUEST_BODY_HASH_HEADER = 'x-renderdrop-content-sha256';
/** The SHA-256 of no bytes: what the signature of a request without a body covers. */
export const EMPTY_BODY_SHA256 = createHash('sha256').digest('hex');

/** How long a worker's request signature is valid. */
const REQUEST_TTL_S = 300;
/** The latest expiry the node takes (a bound on replays; leaves room for clocks a few minutes apart). */
const MAX_AHEAD_S = 900;

function mac(keys: WorkerKeys, method: string, pathAndQuery: string, expires: number, bodySha256: string): string {
  return createHmac('sha256', keys.request).update(`${method.toUpperCase()}\n${pathAndQuery}\n${expires}\n${bodySha256}`).digest('hex');
}

/**
 * The headers that make a worker's request to the node valid: an HMAC, with the request key of the
 * worker secret, of the method, the path with its query, an expiry a few minutes away and the SHA-256
 * of the body (`bodySha256`; a request with a body also carries it in {@link REQUEST_BODY_HASH_HEADER}).
 * A URL copied from Redis is worthless without it, and a signed request fits no other path, method or body.
 */
export function signWorkerRequest(keys: WorkerKeys, method: string, pathAndQuery: string, now = new Date(), bodySha256 = EMPTY_BODY_SHA256): Record<string, string> {
  const expires = Math.floor(now.getTime() / 1000) + REQUEST_TTL_S;
  const signed = { [REQUEST_EXPIRES_HEADER]: String(expires), [REQUEST_SIGNATURE_HEADER]: mac(keys, method, pathAndQuery, expires, bodySha256) };
  return bodySha256 === EMPTY_BODY_SHA256 ? signed : { ...signed, [REQUEST_BODY_HASH_HEADER]: bodySha256 };
}

/** The body hash a request claims ({@link REQUEST_BODY_HASH_HEADER}; none: the empty body's), or null when malformed. */
export function claimedBodySha256(headers: Record<string, string | string[] | undefined>): string | null {
  const claimed = headers[REQUEST_BODY_HASH_HEADER];
  if (claimed === undefined) return EMPTY_BODY_SHA256;
  return typeof claimed === 'string' && /^[0-9a-f]{64}$/.test(claimed) ? claimed : null;
}

/**
 * The body of a signed request, passed through as it arrives and checked at its end against the hash
 * the signature covers: a body that differs fails the stream (`403 worker_body_mismatch`) before whoever
 * reads it can move it into place.
 */
export function verifiedBody(body: IncomingMessage, sha256: string): Readable {
  const hash = createHash('sha256');
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      done(hash.digest('hex') === sha256 ? null : new HttpError(403, 'worker_body_mismatch', 'This request\'s body is not the one its worker signature covers; it was changed on the way.'));
    },
  });
  pipeline(body, check, () => undefined);
  return check;
}

/**
 * Whether a request carries a valid worker signature for its method, path and claimed body hash: 'ok',
 * or what is wrong. The body itself is checked as it is read (verifiedBody).
 */
export function verifyWorkerRequest(
  keys: WorkerKeys,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string | string[] | undefined>,
  now = new Date(),
): 'ok' | 'missing' | 'expired' | 'invalid' {
  const expires = headers[REQUEST_EXPIRES_HEADER];
  const sig = headers[REQUEST_SIGNATURE_HEADER];
  if (expires === undefined && sig === undefined) return 'missing';
  const bodySha256 = claimedBodySha256(headers);
  if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig) || bodySha256 === null) return 'invalid';
  if (!timingSafeEqual(Buffer.from(mac(keys, method, pathAndQuery, Number(expires), bodySha256), 'hex'), Buffer.from(sig, 'hex'))) return 'invalid';
  const nowS = now.getTime() / 1000;
  if (Number(expires) <= nowS) return 'expired';
  return Number(expires) > nowS + MAX_AHEAD_S ? 'invalid' : 'ok';
}
