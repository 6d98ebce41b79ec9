import { Redis, type RedisOptions } from 'ioredis';
import { redactRedisUrl, type RedisTarget, RedisUnavailableError } from '../worker-access';

function options(target: RedisTarget, extra: RedisOptions): RedisOptions {
  return { ...(target.password ? { password: target.password } : {}), connectionName: 'renderdrop', ...extra };
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) return 'connection refused';
  if (code === 'ENOTFOUND' || /ENOTFOUND|EAI_AGAIN/.test(message)) return 'unknown host';
  if (/ETIMEDOUT|timed? ?out/i.test(message)) return 'no answer in time';
  if (/NOAUTH|WRONGPASS|invalid password|AUTH/i.test(message)) return 'password refused or missing';
  return message.split('\n')[0]!;
}

/**
 * Connect once to check that Redis answers, failing fast with one line that names Redis (no
 * retrying: a wrong address should say so at once). Resolves to the server's version.
 */
export async function checkRedis(target: RedisTarget, timeoutMs = 5000): Promise<string> {
  const client = new Redis(target.url, options(target, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: timeoutMs, enableOfflineQueue: false }));
  let cause: unknown = null;
  client.on('error', (error: unknown) => (cause ??= error));
  try {
    await client.connect();
    const info = await client.info('server');
    return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  } catch (error) {
    throw new RedisUnavailableError(`Redis at ${redactRedisUrl(target.url)} is unreachable (${describe(cause ?? error)}): start it, or check its address and password.`);
  } finally {
    client.disconnect();
  }
}

/**
 * A lasting connection for BullMQ and Renderdrop's keys: it reconnects forever (a Redis restart is
 * waited out) and never gives up on a command (BullMQ's blocking reads need that).
 */
export function openRedis(target: RedisTarget, onError: (error: Error) => void): Redis {
  const client = new Redis(target.url, options(target, { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(500 * times, 5000) }));
  client.on('error', onError);
  return client;
}
