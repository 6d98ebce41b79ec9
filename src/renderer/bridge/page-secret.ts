import { PAGE_SECRET_META } from '../../shared/security';

/** Where the page keeps its secret across reloads: its own origin's sessionStorage (scheme, host and port). */
const STORAGE_KEY = 'renderdrop.pageSecret';

/** What the page secret is read from and kept in (the browser's own by default; tests pass their own). */
export interface PageSecretPlaces {
  document: Pick<Document, 'querySelector'>;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** Takes the one-time token out of the address bar, so a reload loads the app instead of the used link. */
  forgetLoginLink: () => void;
}

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function browserPlaces(): PageSecretPlaces {
  return {
    document,
    storage: sessionStore(),
    forgetLoginLink: () => {
      if (new URLSearchParams(window.location.search).has('token')) window.history.replaceState(window.history.state, '', '/');
    },
  };
}

/**
 * The secret browser mode's API wants in a header beside the session cookie. The login page carries it
 * once in a `<meta>`, which is removed and the secret kept in sessionStorage, so a reload of this tab
 * still has it; other servers on 127.0.0.1 cannot read it (sessionStorage is per origin, port
 * included). Null when this tab never had it (a tab not opened from the printed link).
 */
export function takePageSecret(places: PageSecretPlaces = browserPlaces()): string | null {
  const meta = places.document.querySelector<HTMLMetaElement>(`meta[name="${PAGE_SECRET_META}"]`);
  if (meta) {
    const secret = meta.content;
    meta.remove();
    try {
      places.storage?.setItem(STORAGE_KEY, secret);
    } catch {
      // Storage refused (private mode quota): the secret lasts until this page reloads.
    }
    places.forgetLoginLink();
    return secret;
  }
  try {
    return places.storage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}
