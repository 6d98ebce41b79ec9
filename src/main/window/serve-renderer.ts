import { protocol, session } from 'electron';
import { contentSecurityPolicy } from '../../shared/security';
import { serveAppFiles } from './app-protocol';
import { denyPermissions } from './web-guards';

/** Where the renderer comes from: the dev server in development, else the built files. */
export interface RendererSource {
  /** The electron-vite dev server's URL, when running from source. */
  devServer: string | undefined;
  /** The origin the window loads the app from. */
  appOrigin: string;
  /** The built renderer's folder (served on the app scheme). */
  rendererDir: string;
}

/**
 * Serves the renderer with the content security policy (the built files on the app scheme, or the
 * dev server's answers with the policy added), and denies the web permissions the app never needs.
 */
export function serveRenderer(source: RendererSource): void {
  const { devServer, appOrigin } = source;
  const csp = contentSecurityPolicy(devServer ? { devServer } : {});
  if (devServer) {
    session.defaultSession.webRequest.onHeadersReceived({ urls: [`${appOrigin}/*`] }, (details, callback) =>
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } }),
    );
  } else {
    serveAppFiles(protocol, source.rendererDir, csp);
  }
  denyPermissions(session.defaultSession);
}
