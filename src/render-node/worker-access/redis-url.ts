/** Where the node and its workers find Redis. */
export interface RedisTarget {
  /** `redis://[:password@]host:port[/db]` or `rediss://` for TLS. */
  url: string;
  /** Overrides a password in the URL (from RENDERDROP_REDIS_PASSWORD, so it need not be on a command line). */
  password?: string;
}

/** Redis could not be reached or refused us. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** A Redis URL without its password, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'redis://(unreadable URL)';
  }
}

/** Whether a Redis URL carries a password (so it should not be given on a command line). */
export function urlHasPassword(url: string): boolean {
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
}

/** Check a Redis URL's form: `redis://` or `rediss://`, a host, and a database number when given. */
export function checkRedisUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"${redactRedisUrl(url)}" is not a URL; use redis://host:6379 (or rediss:// for TLS).`;
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') return `The Redis URL must start with redis:// or rediss://, not ${u.protocol}//.`;
  if (!u.hostname) return 'The Redis URL has no host; use redis://host:6379.';
  if (u.pathname !== '' && u.pathname !== '/' && !/^\/\d{1,2}$/.test(u.pathname)) return `The Redis URL's path must be a database number (/0 to /15), not ${u.pathname}.`;
  return null;
}
