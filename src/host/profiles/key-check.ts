import { ConfigError } from '../../core/errors';
import type { ConnectionTest } from '../../shared/contract';
import { testConnectionTo } from './profile-backend';

/** Whether a connection test failed because the server refused the key (not because it could not be reached). */
export function keyWasRejected(test: ConnectionTest): boolean {
  return !test.ok && (test.status === 401 || test.status === 403);
}

/**
 * Tries a key on its server before it is saved, and refuses one the server rejects, saying so: a
 * rejected key is never stored as if it worked. A server that cannot be reached does not block saving
 * (the key is tested on the next connection).
 */
export async function refuseRejectedKey(baseUrl: string, apiKey: string, test: (baseUrl: string, apiKey: string) => Promise<ConnectionTest> = testConnectionTo): Promise<void> {
  const result = await test(baseUrl, apiKey);
  if (keyWasRejected(result)) {
    throw new ConfigError(`The server rejected this API key (${result.status}), so it was not saved. Check the key and enter it again.`, { code: 'key-rejected' });
  }
}
