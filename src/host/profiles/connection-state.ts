import { AuthError, ConfigError, RateLimitedError } from '../../core/errors';
import type { ConnectionState } from '../../shared/contract';

/** The connection state an error implies, with the wait before the next try. */
export function connectionStateFor(error: unknown, retryInMs: number, now: Date): ConnectionState {
  const since = now.toISOString();
  const retryInSeconds = Math.max(1, Math.ceil(retryInMs / 1000));
  if (error instanceof AuthError) {
    return { state: 'key-rejected', message: 'The server rejected the API key. Enter a valid key in Settings > Profiles.' };
  }
  if (error instanceof ConfigError && error.code === 'no-api-key') {
    return { state: 'no-key', message: 'No API key is stored for this profile. Add one in Settings > Profiles.' };
  }
  if (error instanceof RateLimitedError) {
    return { state: 'rate-limited', message: 'The server asked to slow down; Renderdrop is waiting before asking again.', retryInSeconds, since };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { state: 'unreachable', message: `The server cannot be reached: ${detail}`, retryInSeconds, since };
}

/** Whether two states would look the same to a person (so no event is needed). */
export function sameConnectionState(a: ConnectionState, b: ConnectionState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
