/**
 * The header browser mode's page sends its session secret in, on every call, upload and event stream.
 * Cookies are not scoped by port (every server on 127.0.0.1 receives them), so the session cookie
 * alone never reaches the API; this secret lives only in the app's own origin.
 */
export const PAGE_SECRET_HEADER = 'x-renderdrop-session';

/** The `<meta name=…>` that hands the page its secret once, in the body of the login page. */
export const PAGE_SECRET_META = 'renderdrop-session';
