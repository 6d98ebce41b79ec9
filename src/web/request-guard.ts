import { timingSafeEqual } from 'node:crypto';

/** The cookie that carries the browser session after the first load. */
export const SESSION_COOKIE = 'renderdrop_session';

/** What a request brings that the guard looks at. */
export interface GuardedRequest {
  host: string | undefined;
  origin: string | undefined;
  cookie: string | undefined;
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
 * sends one, it must be ours) and, unless `needsSession` is false, the session cookie.
 */
export function checkRequest(request: GuardedRequest, options: { port: number; session: string | null; needsSession: boolean }): GuardVerdict {
  const hosts = allowedHosts(options.port);
  if (!request.host || !hosts.has(request.host.toLowerCase())) {
    return { status: 421, reason: 'This server only answers on 127.0.0.1 and localhost.' };
  }
  if (request.origin !== undefined) {
    const origin = request.origin.toLowerCase();
    if (![...hosts].some((h) => origin === `http://${h}`)) return { status: 403, reason: 'Requests from other sites are refused.' };
  }
  if (!options.needsSession) return null;
  const presented = readSessionCookie(request.cookie);
  if (!options.session || !presented || !sameSecret(presented, options.session)) {
    return { status: 401, reason: 'Open the link that `renderdrop web` printed (it carries a one-time token).' };
  }
  return null;
}
