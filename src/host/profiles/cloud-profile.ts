import { ApiClient, type RetryInfo } from '../../core/api';
import type { ConfigError } from '../../core/errors';
import type { SecretStore } from '../../core/secrets';
import { resolveConnection, type SettingsStore } from '../../core/settings';
import { sameServer, trimBaseUrl, type Profile } from '../../shared/settings';
import type { AppState, ConnectionTest, ProfileView } from '../../shared/contract';
import { testConnectionTo, untested, type ProfileBackend, type ProfileConnection } from './profile-backend';

/**
 * A farm (or another node) the artist added: its address and the key stored for it in the keychain
 * (`RENDERDROP_API_KEY` wins). The stored key is only ever sent to the profile's own server.
 */
export class CloudProfile implements ProfileBackend {
  readonly #profile: Profile;
  readonly #store: SettingsStore;
  readonly #secrets: SecretStore;
  readonly #env: Record<string, string | undefined>;
  readonly #keyStore: AppState['keyStore'];

  constructor(profile: Profile, options: { store: SettingsStore; secrets: SecretStore; env: Record<string, string | undefined>; keyStore: AppState['keyStore'] }) {
    this.#profile = profile;
    this.#store = options.store;
    this.#secrets = options.secrets;
    this.#env = options.env;
    this.#keyStore = options.keyStore;
  }

  async keyView(): Promise<Pick<ProfileView, 'hasKey' | 'keyStorage'>> {
    if (this.#env.RENDERDROP_API_KEY?.trim()) return { hasKey: true, keyStorage: 'env' };
    const key = await this.#secrets.get(this.#profile.id).catch(() => null);
    return { hasKey: key !== null, keyStorage: key !== null ? this.#keyStore : 'none' };
  }

  async connect(onRetry: (info: RetryInfo) => void): Promise<ProfileConnection> {
    const connection = await resolveConnection({ ...this.#store.get(), activeProfileId: this.#profile.id }, this.#secrets, this.#env);
    if (!connection.apiKey) return { client: null, blocked: { state: 'no-key', message: `No API key is stored for "${this.#profile.name}". Add one in Settings > Profiles.` } };
    return { client: new ApiClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, onRetry }), blocked: null };
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
