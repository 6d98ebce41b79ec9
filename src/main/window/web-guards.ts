import type { Session, WebContents } from 'electron';
import { decideNavigation } from './navigation-policy';

/** Opens a web or mail link outside the app (Electron's `shell.openExternal`). */
export type OpenExternal = (url: string) => Promise<void>;

/**
 * Locks a window's web contents to the app: navigation away from the app's pages is stopped (web
 * links open in the browser instead), new windows are denied (the same), `<webview>` is refused.
 */
export function guardWebContents(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>, appOrigin: string, openExternal: OpenExternal): void {
  const follow = (url: string, event: { preventDefault(): void }) => {
    const decision = decideNavigation(url, appOrigin);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-external') void openExternal(url).catch(() => undefined);
  };
  contents.on('will-navigate', (event) => follow(event.url, event));
  contents.on('will-redirect', (event) => follow(event.url, event));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (decideNavigation(url, appOrigin, true) === 'open-external') void openExternal(url).catch(() => undefined);
    return { action: 'deny' };
  });
}

/** Refuses every permission a page may ask for (camera, geolocation, ...): the app needs none. */
export function denyPermissions(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
