import type { FastifyInstance } from 'fastify';
import { contentSecurityPolicy, PAGE_SECRET_HEADER, PAGE_SECRET_META } from '../shared/security';
import { checkRequest, type GuardNeeds, SESSION_COOKIE, sameSecret } from './request-guard';
import { errorBody, sendError } from './web-errors';

/** The secrets of one browser-mode run. */
export interface SessionSecrets {
  /** The printed link's one-time token. */
  token: string;
  /** The session cookie's value the token is traded for. */
  session: string;
  /** The secret the login page hands the app's page (never in a cookie); the API wants it in a header. */
  pageSecret: string;
  /** The port the server listens on (known once it listens). */
  port: () => number;
  /** The app's page (index.html), or null when the UI is not built. */
  appPage: () => Promise<string | null>;
}

/**
 * Checks every request's Host, Origin and session (the cookie; for `/api/` also the page's secret
 * header and `Sec-Fetch-Site`), and trades the printed link's token (`GET /?token=`) once for an
 * HttpOnly, SameSite=Strict session cookie and the app's page carrying the page secret in its body,
 * which only the app's own origin can read. Resolves once the token has been traded.
 */
export function guardRequests(app: FastifyInstance, secrets: SessionSecrets): Promise<void> {
  let tokenUsed = false;
  let markTokenUsed: () => void = () => undefined;
  const used = new Promise<void>((resolve) => (markTokenUsed = resolve));
  app.addHook('onRequest', async (request, reply) => {
    const [path = '/', query = ''] = request.url.split('?', 2);
    const presented = request.method === 'GET' && path === '/' ? new URLSearchParams(query).get('token') : null;
    const needs: GuardNeeds = presented !== null ? 'nothing' : path.startsWith('/api/') ? 'cookie-and-secret' : 'cookie';
    const { host, origin, cookie } = request.headers;
    const verdict = checkRequest(
      { host, origin, cookie, fetchSite: header(request.headers['sec-fetch-site']), pageSecret: header(request.headers[PAGE_SECRET_HEADER]) },
      { port: secrets.port(), session: secrets.session, pageSecret: secrets.pageSecret, needs },
    );
    if (verdict) return sendError(reply, verdict.status, errorBody('auth', 'refused', verdict.reason));
    if (presented === null) return;
    if (tokenUsed || !sameSecret(presented, secrets.token)) {
      return sendError(reply, 401, errorBody('auth', 'refused', 'This link was already used or is wrong. Use the browser tab that is already open, or restart `renderdrop web` for a new link.'));
    }
    const page = await secrets.appPage();
    if (page === null) {
      return sendError(reply, 503, errorBody('config', 'not-built', 'The Renderdrop UI is not built yet. Run `npm run build`, then open the link again.'));
    }
    tokenUsed = true;
    markTokenUsed();
    return reply
      .code(200)
      .headers({
        'set-cookie': `${SESSION_COOKIE}=${secrets.session}; HttpOnly; SameSite=Strict; Path=/`,
        'cache-control': 'no-store',
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': contentSecurityPolicy(),
      })
      .send(withPageSecret(page, secrets.pageSecret));
  });
  return used;
}

/** The app's page with the page secret in a `<meta>` at the top of its head. */
function withPageSecret(page: string, pageSecret: string): string {
  const meta = `<meta name="${PAGE_SECRET_META}" content="${pageSecret.replace(/[^A-Za-z0-9_-]/g, '')}">`;
  const head = /<head(\s[^>]*)?>/i.exec(page);
  if (!head) return `${meta}\n${page}`;
  const at = head.index + head[0].length;
  return `${page.slice(0, at)}\n${meta}${page.slice(at)}`;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
