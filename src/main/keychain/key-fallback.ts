import { join } from 'node:path';
import { safeStorage, type SafeStorage } from 'electron';
import type { HostOptions } from '../../host/host';
import { EncryptedFileSecretStore } from './encrypted-file-secret-store';
import { isPlainTextEncryption, type SafeStorageBackend } from './key-store-choice';

/** The file of safeStorage-encrypted keys in the settings folder (only without a keychain, or when the artist chose it). */
export const ENCRYPTED_KEYS_FILE = 'keys.safe-storage.json';

/** The parts of Electron's safeStorage the encrypted key file uses. */
export type SafeStorageApi = Pick<SafeStorage, 'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'>;

/** The encrypted key file in `configDir`, sealed by safeStorage. */
export function safeStorageKeyFile(configDir: string, safe: SafeStorageApi): EncryptedFileSecretStore {
  return new EncryptedFileSecretStore(join(configDir, ENCRYPTED_KEYS_FILE), {
    encrypt: (text) => safe.encryptStringAsync(text),
    decrypt: async (data) => {
      const { result, shouldReEncrypt } = await safe.decryptStringAsync(data);
      return { text: result, reEncrypt: shouldReEncrypt };
    },
  });
}

/**
 * Where a key the keychain refuses may be kept when the artist agrees: the encrypted file, when
 * safeStorage really encrypts on this machine (never a file only obfuscated), else none.
 */
export async function openKeyFallback(configDir: string, safe: SafeStorageApi = safeStorage, platform: NodeJS.Platform = process.platform): Promise<HostOptions['keyFallback'] | null> {
  if (!(await safe.isAsyncEncryptionAvailable().catch(() => false))) return null;
  const backend = platform === 'linux' ? (safe.getSelectedStorageBackend() as SafeStorageBackend) : null;
  if (isPlainTextEncryption(platform, backend)) return null;
  return { kind: 'encrypted-file', secrets: safeStorageKeyFile(configDir, safe) };
}
