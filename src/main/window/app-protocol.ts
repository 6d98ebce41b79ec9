import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Protocol } from 'electron';
import { APP_ORIGIN, APP_SCHEME, isAppUrl } from './app-origin';
import { RENDERER_ASSET_TYPES } from '../../shared/security';


/**
 * The file of the built renderer an `app://renderdrop/...` URL names, or null for another host, a
 * path that leaves `rootDir` or a type the app does not serve.
 */
export function resolveAppFile(rootDir: string, url: string): { path: string; contentType: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!isAppUrl(url, APP_ORIGIN)) return null;
  let relative: string;
  try {
    relative = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (relative.includes('\0')) return null;
  if (relative === '/' || relative === '') relative = '/index.html';
  const root = normalize(rootDir);
  const path = normalize(join(root, relative));
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  const contentType = RENDERER_ASSET_TYPES[extname(path).toLowerCase()];
  return contentType ? { path, contentType } : null;
}

/** Declares the app scheme as a standard, secure one. Must run before the app is ready. */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);
}

/**
 * Serves the built renderer on the app scheme, every answer with the Content Security Policy and
 * `nosniff`; anything outside the renderer folder is a 404.
 */
export function serveAppFiles(protocol: Pick<Protocol, 'handle'>, rootDir: string, csp: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(rootDir, request.url);
    const headers = { 'content-security-policy': csp, 'x-content-type-options': 'nosniff' };
    if (!file || request.method !== 'GET') return new Response('Not found', { status: 404, headers });
    try {
      return new Response(await readFile(file.path), { headers: { ...headers, 'content-type': file.contentType } });
    } catch {
      return new Response('Not found', { status: 404, headers });
    }
  });
}
