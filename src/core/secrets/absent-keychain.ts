import { ConfigError } from '../errors';
import type { SecretStore } from './secret-store';

/**
 * The keychain of a machine where none answers: it holds no key and refuses to store one, saying so,
 * so a key goes elsewhere only where the artist chooses (never silently to memory or a file).
 */
export class AbsentKeychain implements SecretStore {
  async get(): Promise<string | null> {
    return null;
  }

  async set(): Promise<void> {
    throw new ConfigError('Could not store the API key in the system keychain (none is reachable). Set one up (GNOME Keyring, KWallet or KeePassXC), or choose where else to keep the key.', {
      code: 'keychain-unavailable',
    });
  }

  async delete(): Promise<boolean> {
    return false;
  }

  async isAvailable(): Promise<boolean> {
    return false;
  }
}
