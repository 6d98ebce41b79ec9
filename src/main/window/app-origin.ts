/** The scheme the app's pages are served on (not file://, so they get an origin of their own). */
export const APP_SCHEME = 'app';

/** The origin of the app's pages; IPC answers only frames on it. */
export const APP_ORIGIN = `${APP_SCHEME}://renderdrop`;

/** The page the window opens. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Whether a URL belongs to the app's own pages: same scheme, host and port as `appOrigin`
 * (`app://renderdrop`, or the development server). Compared part by part, as Node.js gives custom
 * schemes no origin; URLs without a host (file:, data:, about:) or with credentials never match.
 */
export function isAppUrl(url: string, appOrigin: string): boolean {
  try {
    const page = new URL(url);
    const app = new URL(appOrigin);
    return page.host !== '' && page.username === '' && page.password === '' && page.protocol === app.protocol && page.host === app.host;
  } catch {
    return false;
  }
}
