import { join } from 'node:path';
import { safeStorage } from 'electron';
import { KeyringSecretStore, MemorySecretStore, type SecretStore } from '../../core/secrets';
import type { AppState } from '../../shared/contract';
import { chooseKeyStore } from './key-store-choice';
import { ENCRYPTED_KEYS_FILE, safeStorageKeyFile, type SafeStorageApi } from './key-fallback';

export { ENCRYPTED_KEYS_FILE };

/** The store the app uses for API keys, what kind it is, and what Settings says about it. */
export interface OpenedSecretStore {
  secrets: SecretStore;
  keyStore: AppState['keyStore'];
  note?: string;
}

/** Where to look. Defaults: the keychain the CLI uses, Electron's safeStorage, this platform. */
export interface OpenSecretStoreOptions {
  configDir: string;
  keychain?: SecretStore;
  safe?: SafeStorageApi;
  platform?: NodeJS.Platform;
}

/**
 * Opens the API key store after the app is ready: the OS keychain through @napi-rs/keyring (the same
 * entries `renderdrop login` writes), else a safeStorage-encrypted file, else memory only
 * ({@link chooseKeyStore}).
 */
export async function openSecretStore(options: OpenSecretStoreOptions): Promise<OpenedSecretStore> {
  const keychain = options.keychain ?? new KeyringSecretStore();
  const safe = options.safe ?? safeStorage;
  const platform = options.platform ?? process.platform;
  const keychainAvailable = await keychain.isAvailable().catch(() => false);
  if (keychainAvailable) return { secrets: keychain, keyStore: 'keychain' };
  const encryptedFile = join(options.configDir, ENCRYPTED_KEYS_FILE);
  const choice = chooseKeyStore({
    keychainAvailable,
    encryptionAvailable: await safe.isAsyncEncryptionAvailable().catch(() => false),
    platform,
    linuxBackend: platform === 'linux' ? safe.getSelectedStorageBackend() : null,
    encryptedFile,
  });
  if (choice.kind === 'encrypted-file') {
    return { secrets: safeStorageKeyFile(options.configDir, safe), keyStore: 'encrypted-file', note: choice.note };
  }
  return { secrets: new MemorySecretStore(), keyStore: 'memory', ...(choice.kind === 'memory' ? { note: choice.note } : {}) };
}
