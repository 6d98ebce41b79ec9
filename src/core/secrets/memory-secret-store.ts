import type { SecretStore } from './secret-store';

/** Keys in memory only: for tests and for machines without a keychain (the key lasts one process). */
export class MemorySecretStore implements SecretStore {
  readonly #keys = new Map<string, string>();

  async get(profileId: string): Promise<string | null> {
    return this.#keys.get(profileId) ?? null;
  }

  async set(profileId: string, key: string): Promise<void> {
    this.#keys.set(profileId, key);
  }

  async delete(profileId: string): Promise<boolean> {
    return this.#keys.delete(profileId);
  }

  async isAvailable(): Promise<boolean> {
    return true;
  }
}
