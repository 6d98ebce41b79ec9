import type { FastifyInstance } from 'fastify';
import { checkRequest, SESSION_COOKIE, sameSecret } from './request-guard';
import { errorBody, sendError } from './web-errors';

/** The secrets of one browser-mode run. */
export interface SessionSecrets {
  /** The printed link's one-time token. */
  token: string;
  /** The session cookie's value the token is traded for. */
  session: string;
  /** The port the server listens on (known once it listens). */
  port: () => number;
}

/**
 * Checks every request's Host, Origin and session cookie, and trades the printed link's token
 * (`GET /?token=`) once for an HttpOnly, SameSite=Strict session cookie. Resolves once it has been.
 */
export function guardRequests(app: FastifyInstance, secrets: SessionSecrets): Promise<void> {
  let tokenUsed = false;
  let markTokenUsed: () => void = () => undefined;
  const used = new Promise<void>((resolve) => (markTokenUsed = resolve));
  app.addHook('onRequest', async (request, reply) => {
    const [path = '/', query = ''] = request.url.split('?', 2);
    const presented = request.method === 'GET' && path === '/' ? new URLSearchParams(query).get('token') : null;
    const verdict = checkRequest(
      { host: request.headers.host, origin: request.headers.origin, cookie: request.headers.cookie },
      { port: secrets.port(), session: secrets.session, needsSession: presented === null },
    );
    if (verdict) return sendError(reply, verdict.status, errorBody('auth', 'refused', verdict.reason));
    if (presented === null) return;
    if (tokenUsed || !sameSecret(presented, secrets.token)) {
      return sendError(reply, 401, errorBody('auth', 'refused', 'This link was already used or is wrong. Use the browser tab that is already open, or restart `renderdrop web` for a new link.'));
    }
    tokenUsed = true;
    markTokenUsed();
    return reply.code(303).headers({ location: '/', 'set-cookie': `${SESSION_COOKIE}=${secrets.session}; HttpOnly; SameSite=Strict; Path=/`, 'cache-control': 'no-store' }).send();
  });
  return used;
}
