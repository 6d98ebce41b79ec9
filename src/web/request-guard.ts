import { timingSafeEqual } from 'node:crypto';

/** The cookie that carries the browser session after the first load. */
export const SESSION_COOKIE = 'renderdrop_session';

/** What a request brings that the guard looks at. */
export interface GuardedRequest {
  host: string | undefined;
  origin: string | undefined;
  cookie: string | undefined;
  /** `Sec-Fetch-Site`, which browsers send on every request. */
  fetchSite: string | undefined;
  /** The page secret header's value. */
  pageSecret: string | undefined;
}

/** What a request must bring: nothing (the login link), the cookie (the page and its assets), or both the cookie and the page's secret (`/api/`). */
export type GuardNeeds = 'nothing' | 'cookie' | 'cookie-and-secret';

/** The secrets a request is checked against. */
export interface GuardOptions {
  port: number;
  session: string;
  pageSecret: string;
  needs: GuardNeeds;
}

/** Why a request is refused, or null when it may pass. */
export type GuardVerdict = { status: 403 | 401 | 421; reason: string } | null;

/** The Host values browser mode answers to: the loopback address and `localhost`, on its port. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** The session cookie's value in a Cookie header, or null. */
export function readSessionCookie(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) return rest.join('=');
  }
  return null;
}

/** Compares two secrets in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks Host (no DNS rebinding: only 127.0.0.1 and localhost on our port), Origin (when a browser
 * sends one, it must be ours), then what `needs` asks: the session cookie, and for the API also
 * `Sec-Fetch-Site: same-origin` (when the browser sends it) and the page's secret header. The cookie
 * alone never reaches the API: another server on 127.0.0.1 receives it too.
 */
export function checkRequest(request: GuardedRequest, options: GuardOptions): GuardVerdict {
  const hosts = allowedHosts(options.port);
  if (!request.host || !hosts.has(request.host.toLowerCase())) {
    return { status: 421, reason: 'This server only answers on 127.0.0.1 and localhost.' };
  }
  const foreign = { status: 403, reason: 'Requests from other sites are refused.' } as const;
  if (request.origin !== undefined) {
    const origin = request.origin.toLowerCase();
    if (![...hosts].some((h) => origin === `http://${h}`)) return foreign;
  }
  if (options.needs === 'nothing') return null;
  if (options.needs === 'cookie-and-secret' && request.fetchSite !== undefined && request.fetchSite !== 'same-origin') return foreign;
  const presented = readSessionCookie(request.cookie);
  if (!presented || !sameSecret(presented, options.session)) {
    return { status: 401, reason: 'Open the link that `renderdrop web` printed (it carries a one-time token).' };
  }
  if (options.needs === 'cookie' || (request.pageSecret !== undefined && sameSecret(request.pageSecret, options.pageSecret))) return null;
  return { status: 401, reason: 'Only the Renderdrop tab opened from the printed link may do this: the session cookie alone is not enough.' };
}
