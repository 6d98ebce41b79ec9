import { isAppUrl } from './app-origin';

/** What to do when the page wants to go to a URL or open a window. */
export type NavigationDecision = 'allow' | 'open-external' | 'block';

const EXTERNAL = new Set(['https:', 'http:', 'mailto:']);

/**
 * Navigation inside the window stays on the app's own pages; web and mail links go to the system
 * browser or mail client; everything else (file:, javascript:, data:, custom schemes) is blocked.
 * New windows are never allowed: `forNewWindow` turns 'allow' into 'block'.
 */
export function decideNavigation(url: string, appOrigin: string, forNewWindow = false): NavigationDecision {
  if (!forNewWindow && isAppUrl(url, appOrigin)) return 'allow';
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return 'block';
  }
  if (EXTERNAL.has(protocol) && !isAppUrl(url, appOrigin)) return 'open-external';
  return 'block';
}
