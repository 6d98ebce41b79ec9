/** A server address as Renderdrop stores and shows it: trimmed, without trailing slashes. */
export function trimBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/**
 * What identifies the server a base URL names: scheme, user info, host (lower case, in ASCII), port
 * (the scheme's default left out), path without trailing slashes, and query. Two addresses with the
 * same key are the same API, so a key stored for one may be sent to the other; null when the text is
 * not an http(s) URL, which matches nothing.
 */
export function serverKey(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const user = parsed.username !== '' || parsed.password !== '' ? `${parsed.username}:${parsed.password}@` : '';
  return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
}

/**
 * Whether two addresses name the same server. This decides whether an API key stored for one address
 * is sent to the other: anything that differs in scheme, host, port, path or query is another server.
 */
export function sameServer(a: string, b: string): boolean {
  const left = serverKey(a);
  return left !== null && left === serverKey(b);
}
