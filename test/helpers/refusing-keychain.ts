import { ConfigError } from '../../src/core/errors';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';

/** A keychain that refuses every call, as a Secret Service answering "AccessDenied" does; counts the calls. */
export class RefusingKeychain extends MemorySecretStore {
  calls = 0;

  #refuse(action: string): never {
    this.calls += 1;
    throw new ConfigError(`Could not ${action} the API key in the system keychain (AccessDenied). Unlock the keychain, or set RENDERDROP_API_KEY for this session.`, {
      code: 'keychain-unavailable',
    });
  }
  override async get(): Promise<string | null> {
    return this.#refuse('read');
  }
  override async set(): Promise<void> {
    this.#refuse('store');
  }
  override async delete(): Promise<boolean> {
    return this.#refuse('delete');
  }
  override async isAvailable(): Promise<boolean> {
    return this.#refuse('reach');
  }
}
