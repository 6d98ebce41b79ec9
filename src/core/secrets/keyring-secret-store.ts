import type { AsyncEntry } from '@napi-rs/keyring';
import { ConfigError } from '../errors';
import { SECRET_SERVICE, type SecretStore } from './secret-store';

/** The native keychain module, loaded on first use: a command given its key in the environment never needs it. */
let keyring: Promise<typeof import('@napi-rs/keyring')> | null = null;

/**
 * Keys in the OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux) via
 * @napi-rs/keyring: service `renderdrop`, account = profile id.
 */
export class KeyringSecretStore implements SecretStore {
  readonly #service: string;

  constructor(options: { service?: string } = {}) {
    this.#service = options.service ?? SECRET_SERVICE;
  }

  async get(profileId: string): Promise<string | null> {
    try {
      return (await (await this.#entry(profileId)).getPassword()) ?? null;
    } catch (error) {
      throw unavailable('read', error);
    }
  }

  async set(profileId: string, key: string): Promise<void> {
    try {
      await (await this.#entry(profileId)).setPassword(key);
    } catch (error) {
      throw unavailable('store', error);
    }
  }

  async delete(profileId: string): Promise<boolean> {
    try {
      return await (await this.#entry(profileId)).deletePassword();
    } catch (error) {
      if (/no (matching )?entry|not found/i.test(error instanceof Error ? error.message : String(error))) return false;
      throw unavailable('delete', error);
    }
  }

  async isAvailable(): Promise<boolean> {
    try {
      await (await this.#entry('__renderdrop_probe__')).getPassword();
      return true;
    } catch {
      return false;
    }
  }

  async #entry(profileId: string): Promise<AsyncEntry> {
    keyring ??= import('@napi-rs/keyring');
    const { AsyncEntry: Entry } = await keyring;
    return new Entry(this.#service, profileId);
  }
}

function unavailable(action: string, error: unknown): ConfigError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigError(
    `Could not ${action} the API key in the system keychain (${reason}). Unlock the keychain, or set RENDERDROP_API_KEY for this session.`,
    { code: 'keychain-unavailable' },
  );
}
