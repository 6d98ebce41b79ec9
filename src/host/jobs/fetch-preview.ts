/**
 * Fetches an image of at most `limit` bytes as a data URL: http(s) only, no redirects (a 3xx is no
 * preview), an `image/*` content type, and a body read with a byte cap so neither a large declared
 * length nor an endless stream is taken in. Null for anything else; network errors and the timeout
 * reject.
 */
export async function fetchPreview(url: string, limit: number, timeoutMs = 20_000): Promise<string | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(timeoutMs)]);
  try {
    const response = await fetch(target, { redirect: 'manual', signal });
    const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
    const declared = response.headers.get('content-length');
    if (response.status !== 200 || !response.body || !/^image\/[a-z0-9.+-]+$/.test(type)) return null;
    if (declared !== null && !(Number(declared) <= limit)) return null;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > limit) return null;
      chunks.push(Buffer.from(chunk));
    }
    return `data:${type};base64,${Buffer.concat(chunks).toString('base64')}`;
  } finally {
    stop.abort();
  }
}
