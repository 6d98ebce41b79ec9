import { ConfigError } from '../../core/errors';
import type { SecretStore } from '../../core/secrets';
import type { AppState, KeyPlace, ProfileView } from '../../shared/contract';

/** A second place for keys when the keychain refuses one: the desktop app's encrypted file, or browser mode's key file (shared with the CLI). */
export interface KeyFallback {
  kind: 'encrypted-file' | 'file';
  secrets: SecretStore;
}

/**
 * The API keys of the artist's farm profiles, each where it could be kept: the system keychain (or
 * whatever store the app opened), the fallback file the artist chose when the keychain refused it, or
 * this run's memory. A key is read from the place it was put, so a keychain that refuses everything
 * never hides a key kept elsewhere.
 */
export class ProfileKeys implements SecretStore {
  readonly #primary: SecretStore;
  readonly #primaryKind: AppState['keyStore'];
  readonly #fallback: KeyFallback | null;
  readonly #session = new Map<string, string>();

  constructor(options: { primary: SecretStore; primaryKind: AppState['keyStore']; fallback: KeyFallback | null }) {
    this.#primary = options.primary;
    this.#primaryKind = options.primaryKind;
    this.#fallback = options.fallback;
  }

  /** The place other than the keychain a refused key may go to, when this app has one. */
  get fallbackKind(): KeyFallback['kind'] | null {
    return this.#fallback?.kind ?? null;
  }

  async get(profileId: string): Promise<string | null> {
    const kept = this.#session.get(profileId) ?? (await this.#fromFallback(profileId));
    return kept ?? this.#primary.get(profileId);
  }

  /** Stores a key in the keychain (throws when it refuses); a copy kept elsewhere is dropped. */
  async set(profileId: string, key: string): Promise<void> {
    await this.#primary.set(profileId, key);
    this.#session.delete(profileId);
    await this.#fallback?.secrets.delete(profileId).catch(() => false);
  }

  /** Stores a key the keychain refused where the artist chose: the fallback file or this run's memory. */
  async keep(profileId: string, key: string, place: KeyPlace): Promise<void> {
    if (place === 'session') {
      this.#session.set(profileId, key);
      return;
    }
    if (!this.#fallback || this.#fallback.kind !== place) {
      const what = place === 'file' ? 'key file' : 'encrypted file';
      throw new ConfigError(`This app has no ${what} to keep keys in. Keep the key until Renderdrop quits instead.`, { code: 'no-key-fallback' });
    }
    await this.#fallback.secrets.set(profileId, key);
  }

  async delete(profileId: string): Promise<boolean> {
    const inSession = this.#session.delete(profileId);
    const inFile = (await this.#fallback?.secrets.delete(profileId).catch(() => false)) ?? false;
    try {
      return (await this.#primary.delete(profileId)) || inSession || inFile;
    } catch (error) {
      if (inSession || inFile) return true;
      throw error;
    }
  }

  async isAvailable(): Promise<boolean> {
    return this.#primary.isAvailable();
  }

  /** Where a profile's key is kept: 'none' when there is none, 'unreadable' when the store would not say. */
  async where(profileId: string): Promise<ProfileView['keyStorage']> {
    if (this.#session.has(profileId)) return 'memory';
    if (this.#fallback && (await this.#fromFallback(profileId).catch(() => null)) !== null) return this.#fallback.kind;
    try {
      return (await this.#primary.get(profileId)) !== null ? this.#primaryKind : 'none';
    } catch {
      return 'unreadable';
    }
  }

  async #fromFallback(profileId: string): Promise<string | null> {
    return this.#fallback ? this.#fallback.secrets.get(profileId) : null;
  }
}
