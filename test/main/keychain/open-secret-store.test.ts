import { describe, expect, it, vi, beforeEach } from 'vitest';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import type { SecretStore } from '../../../src/core/secrets/secret-store';
import { tempDir } from '../../helpers/scene-files';

const safeStorage = {
  isAsyncEncryptionAvailable: vi.fn(async () => true),
  getSelectedStorageBackend: vi.fn(() => 'kwallet6' as string),
  encryptStringAsync: vi.fn(async (text: string) => Buffer.from([...Buffer.from(text)].reverse())),
  decryptStringAsync: vi.fn(async (data: Buffer) => ({ result: Buffer.from([...data].reverse()).toString(), shouldReEncrypt: false })),
};

vi.mock('electron', () => ({ safeStorage }));

const { openSecretStore, ENCRYPTED_KEYS_FILE } = await import('../../../src/main/keychain/open-secret-store');
const { EncryptedFileSecretStore } = await import('../../../src/main/keychain/encrypted-file-secret-store');

function keychain(available: boolean): SecretStore {
  const store = new MemorySecretStore();
  store.isAvailable = async () => available;
  return store;
}

describe('opening the API key store (electron mocked)', () => {
  beforeEach(() => {
    safeStorage.isAsyncEncryptionAvailable.mockResolvedValue(true);
    safeStorage.getSelectedStorageBackend.mockReturnValue('kwallet6');
  });

  it('uses the keychain the CLI uses when it answers, without touching safeStorage', async () => {
    const chain = keychain(true);
    const opened = await openSecretStore({ configDir: await tempDir(), keychain: chain, platform: 'linux' });
    expect(opened).toEqual({ secrets: chain, keyStore: 'keychain' });
    expect(safeStorage.isAsyncEncryptionAvailable).not.toHaveBeenCalled();
  });

  it('without a keychain, keeps keys through safeStorage in the settings folder and explains it', async () => {
    const dir = await tempDir();
    const opened = await openSecretStore({ configDir: dir, keychain: keychain(false), platform: 'linux' });
    expect(opened.keyStore).toBe('encrypted-file');
    expect(opened.secrets).toBeInstanceOf(EncryptedFileSecretStore);
    expect((opened.secrets as InstanceType<typeof EncryptedFileSecretStore>).path).toBe(`${dir}/${ENCRYPTED_KEYS_FILE}`);
    expect(opened.note).toMatch(/No system keychain/);
    await opened.secrets.set('farm', 'RJ-abcdefgh');
    expect(safeStorage.encryptStringAsync).toHaveBeenCalledWith('RJ-abcdefgh');
    expect(await opened.secrets.get('farm')).toBe('RJ-abcdefgh');
  });

  it('refuses basic_text (plain text in disguise): memory only, and says so', async () => {
    safeStorage.getSelectedStorageBackend.mockReturnValue('basic_text');
    const opened = await openSecretStore({ configDir: await tempDir(), keychain: keychain(false), platform: 'linux' });
    expect(opened.keyStore).toBe('memory');
    expect(opened.secrets).toBeInstanceOf(MemorySecretStore);
    expect(opened.note).toMatch(/will not write API keys to disk/);
  });

  it('keeps keys in memory when safeStorage cannot encrypt, or its check fails', async () => {
    safeStorage.isAsyncEncryptionAvailable.mockResolvedValue(false);
    expect((await openSecretStore({ configDir: await tempDir(), keychain: keychain(false), platform: 'darwin' })).keyStore).toBe('memory');
    safeStorage.isAsyncEncryptionAvailable.mockRejectedValue(new Error('not ready'));
    expect((await openSecretStore({ configDir: await tempDir(), keychain: keychain(false), platform: 'win32' })).keyStore).toBe('memory');
  });

  it('a keychain whose probe throws counts as unavailable', async () => {
    const broken = keychain(false);
    broken.isAvailable = async () => Promise.reject(new Error('dbus'));
    expect((await openSecretStore({ configDir: await tempDir(), keychain: broken, platform: 'linux' })).keyStore).toBe('encrypted-file');
  });
});
