import { ApiClient, type RetryInfo } from '../../core/api';
import { ConfigError, NetworkError } from '../../core/errors';
import { resolveConnection, type SettingsStore } from '../../core/settings';
import { sameServer, trimBaseUrl, type Profile } from '../../shared/settings';
import type { ConnectionTest, ProfileView } from '../../shared/contract';
import { testConnectionTo, untested, type ProfileBackend, type ProfileConnection } from './profile-backend';
import { isKeychainRefusal, keychainReason } from './keychain-refusal';
import type { ProfileKeys } from './profile-keys';

/** How long a switch waits for a farm's first answer. */
const ANSWER_WAIT_MS = 10_000;

/**
 * A farm (or another node) the artist added: its address and the key stored for it in the keychain
 * (`RENDERDROP_API_KEY` wins). The stored key is only ever sent to the profile's own server.
 */
export class CloudProfile implements ProfileBackend {
  readonly #profile: Profile;
  readonly #store: SettingsStore;
  readonly #secrets: ProfileKeys;
  readonly #env: Record<string, string | undefined>;

  constructor(profile: Profile, options: { store: SettingsStore; secrets: ProfileKeys; env: Record<string, string | undefined> }) {
    this.#profile = profile;
    this.#store = options.store;
    this.#secrets = options.secrets;
    this.#env = options.env;
  }

  async keyView(): Promise<Pick<ProfileView, 'hasKey' | 'keyStorage'>> {
    if (this.#env.RENDERDROP_API_KEY?.trim()) return { hasKey: true, keyStorage: 'env' };
    const keyStorage = await this.#secrets.where(this.#profile.id);
    return { hasKey: keyStorage !== 'none' && keyStorage !== 'unreadable', keyStorage };
  }

  async connect(onRetry: (info: RetryInfo) => void, options: { mustAnswer?: boolean } = {}): Promise<ProfileConnection> {
    const connection = await resolveConnection({ ...this.#store.get(), activeProfileId: this.#profile.id }, this.#secrets, this.#env).catch((error: unknown) => {
      if (!isKeychainRefusal(error)) throw error;
      throw new ConfigError(`The system keychain refused to give its API key${keychainReason(error)}. Unlock the keychain, or enter the key again in Settings.`, { code: 'keychain-unavailable' });
    });
    if (!connection.apiKey) return { client: null, blocked: { state: 'no-key', message: `No API key is stored for "${this.#profile.name}". Add one in Settings > Profiles.` } };
    if (options.mustAnswer) await this.#mustAnswer(connection.baseUrl, connection.apiKey);
    return { client: new ApiClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, onRetry }), blocked: null };
  }

  /** Throws when the server does not answer at all (an answer that refuses the key or asks to wait is an answer). */
  async #mustAnswer(baseUrl: string, apiKey: string): Promise<void> {
    const client = new ApiClient({ baseUrl, apiKey, retry: { rateLimitRetries: 0, transientRetries: 0 }, timeoutMs: ANSWER_WAIT_MS });
    try {
      await client.listJobs({ page: 1, pageSize: 1 });
    } catch (error) {
      if (!(error instanceof NetworkError)) return;
      throw new ConfigError(`The server at ${baseUrl} is not answering: ${whyNoAnswer(error.code)}. Check that it is running and that the address is right.`, { code: 'server-unreachable' });
    }
  }

  refuseChange(): void {}

  submitRefusal(): ConfigError | null {
    return null;
  }

  async testConnection(typed: { baseUrl?: string; apiKey?: string }): Promise<ConnectionTest> {
    const profile = this.#profile;
    const url = typed.baseUrl ?? profile.baseUrl;
    const storedKeyFits = typed.baseUrl === undefined || sameServer(typed.baseUrl, profile.baseUrl);
    if (!typed.apiKey && !storedKeyFits) {
      return untested(`Enter the API key for ${url} to test it; the key stored for "${profile.name}" is only sent to ${profile.baseUrl}.`);
    }
    const key = typed.apiKey ?? (storedKeyFits ? await this.#secrets.get(profile.id) : null);
    if (!key) return untested('Enter an API key to test.');
    return testConnectionTo(trimBaseUrl(url), key);
  }
}

/** Why a server gave no answer, in words, from the network error's code. */
function whyNoAnswer(code: string | undefined): string {
  if (code === 'ETIMEDOUT') return `it gave no answer within ${ANSWER_WAIT_MS / 1000} seconds`;
  if (code === 'ECONNREFUSED') return 'nothing takes connections at that address';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its name could not be found';
  return `the connection failed${code ? ` (${code})` : ''}`;
}
