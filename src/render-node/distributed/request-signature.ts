import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WorkerKeys } from './worker-secret';

/** Headers of a worker's signed request: when it stops being valid (Unix seconds), and the signature. */
export const REQUEST_EXPIRES_HEADER = 'x-renderdrop-expires';
export const REQUEST_SIGNATURE_HEADER = 'x-renderdrop-signature';

/** How long a worker's request signature is valid. */
const REQUEST_TTL_S = 300;
/** The latest expiry the node takes (a bound on replays; leaves room for clocks a few minutes apart). */
const MAX_AHEAD_S = 900;

function mac(keys: WorkerKeys, method: string, pathAndQuery: string, expires: number): string {
  return createHmac('sha256', keys.request).update(`${method.toUpperCase()}\n${pathAndQuery}\n${expires}`).digest('hex');
}

/**
 * The headers that make a worker's request to the node valid: an HMAC, with the request key of the
 * worker secret, of the method, the path with its query and an expiry a few minutes away. A URL copied
 * from Redis is worthless without it, and a signed request does not fit any other path or method.
 */
export function signWorkerRequest(keys: WorkerKeys, method: string, pathAndQuery: string, now = new Date()): Record<string, string> {
  const expires = Math.floor(now.getTime() / 1000) + REQUEST_TTL_S;
  return { [REQUEST_EXPIRES_HEADER]: String(expires), [REQUEST_SIGNATURE_HEADER]: mac(keys, method, pathAndQuery, expires) };
}

/** Whether a request carries a valid worker signature for its method and path: 'ok', or what is wrong. */
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
  if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) return 'invalid';
  if (!timingSafeEqual(Buffer.from(mac(keys, method, pathAndQuery, Number(expires)), 'hex'), Buffer.from(sig, 'hex'))) return 'invalid';
  const nowS = now.getTime() / 1000;
  if (Number(expires) <= nowS) return 'expired';
  return Number(expires) > nowS + MAX_AHEAD_S ? 'invalid' : 'ok';
}
