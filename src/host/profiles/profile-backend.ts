import { countOf } from '../../shared/text';
import { ApiClient, type RetryInfo } from '../../core/api';
import { AuthError, type ConfigError, serializeError } from '../../core/errors';
import type { ConnectionState, ConnectionTest, ProfileView } from '../../shared/contract';

/** A client for a profile's server, or why the profile cannot be used (both when it can be reached but not used). */
export interface ProfileConnection {
  client: ApiClient | null;
  blocked: ConnectionState | null;
}

/**
 * What kind of server a profile is: the render node inside the app ("This computer") or a farm
 * reached with a stored key. The host asks its profile's back end instead of testing which one it is.
 */
export interface ProfileBackend {
  /** What the UI shows of the profile's key (never the key). */
  keyView(): Promise<Pick<ProfileView, 'hasKey' | 'keyStorage'>>;
  /**
   * A client whose waits before retrying go to `onRetry`, or why the profile cannot be used. With
   * `mustAnswer`, a server that does not answer (or a key that cannot be read) is an error, thrown.
   */
  connect(onRetry: (info: RetryInfo) => void, options?: { mustAnswer?: boolean }): Promise<ProfileConnection>;
  /** Throws when the artist may not change this part of the profile (`address`, `key`, `existence`). */
  refuseChange(what: 'address' | 'key' | 'existence'): void;
  /** Why files cannot be submitted to it right now, or null. */
  submitRefusal(): ConfigError | null;
  /** "Test connection", with a typed address or key when given, else the stored ones. */
  testConnection(typed: { baseUrl?: string; apiKey?: string }): Promise<ConnectionTest>;
}

/** Asks a server for one job with a key, once, and says in plain words what happened. */
export async function testConnectionTo(baseUrl: string, apiKey: string): Promise<ConnectionTest> {
  const client = new ApiClient({ baseUrl, apiKey, retry: { rateLimitRetries: 0, transientRetries: 0 }, timeoutMs: 10_000 });
  try {
    const list = await client.listJobs({ page: 1, pageSize: 1 });
    return { ok: true, message: `Connected: the key works and sees ${countOf(list.pagination.total, 'job')}.`, jobCount: list.pagination.total, status: 200 };
  } catch (error) {
    const serialized = serializeError(error);
    const message = error instanceof AuthError ? 'The server rejected this API key. Check it and enter it again.' : serialized.message;
    return { ok: false, message, jobCount: null, status: serialized.status ?? null };
  }
}

/** A failed test that sent nothing. */
export function untested(message: string): ConnectionTest {
  return { ok: false, message, jobCount: null, status: null };
}
