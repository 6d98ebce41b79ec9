import { ConfigError } from '../errors';
import type { FileSecretStore } from './file-secret-store';
import type { SecretStore } from './secret-store';

/** Where a profile's key is kept: the system keychain, or the key file the artist chose. */
export type KeyLocation = 'keychain' | 'file';

/**
 * The keys the CLI reads and writes: the system keychain first, the key file (0600) only where the
 * artist put a key there (`login --store file`). A key is read from where it was put, so a keychain that
 * does not answer never hides a key in the file, and the file is never used without being chosen.
 */
export class StoredKeys implements SecretStore {
  readonly keychain: SecretStore;
  readonly file: FileSecretStore;

  constructor(options: { keychain: SecretStore; file: FileSecretStore }) {
    this.keychain = options.keychain;
    this.file = options.file;
  }

  async get(profileId: string): Promise<string | null> {
    return (await this.file.get(profileId)) ?? this.keychain.get(profileId);
  }

  /** Stores a key in the keychain; a copy in the file is removed. */
  async set(profileId: string, key: string): Promise<void> {
    await this.setIn('keychain', profileId, key);
  }

  /** Stores a key where the artist chose; the copy in the other place, if any, is removed. */
  async setIn(place: KeyLocation, profileId: string, key: string): Promise<void> {
    if (place === 'file') {
      await this.file.set(profileId, key);
      await this.keychain.delete(profileId).catch(() => false);
      return;
    }
    await this.keychain.set(profileId, key);
    await this.file.delete(profileId).catch(() => false);
  }

  async delete(profileId: string): Promise<boolean> {
    const inFile = await this.file.delete(profileId).catch(() => false);
    try {
      return (await this.keychain.delete(profileId)) || inFile;
    } catch (error) {
      if (inFile) return true;
      throw error;
    }
  }

  async isAvailable(): Promise<boolean> {
    return this.keychain.isAvailable();
  }

  /** Where a profile's key is: `none` when nowhere, `unknown` when the keychain would not say. */
  async where(profileId: string): Promise<KeyLocation | 'none' | 'unknown'> {
    if (await this.file.has(profileId)) return 'file';
    try {
      return (await this.keychain.get(profileId)) !== null ? 'keychain' : 'none';
    } catch (error) {
      if (error instanceof ConfigError) return 'unknown';
      throw error;
    }
  }
}
