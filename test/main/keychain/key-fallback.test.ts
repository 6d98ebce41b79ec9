import { describe, expect, it, vi } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../helpers/scene-files';

vi.mock('electron', () => ({ safeStorage: {} }));

const { openKeyFallback, ENCRYPTED_KEYS_FILE } = await import('../../../src/main/keychain/key-fallback');

function safe(options: { available: boolean; backend: string }) {
  return {
    isAsyncEncryptionAvailable: vi.fn(async () => options.available),
    getSelectedStorageBackend: vi.fn(() => options.backend as 'kwallet6'),
    encryptStringAsync: vi.fn(async (text: string) => Buffer.from([...Buffer.from(text)].reverse())),
    decryptStringAsync: vi.fn(async (data: Buffer) => ({ result: Buffer.from([...data].reverse()).toString(), shouldReEncrypt: false })),
  };
}

describe('the encrypted file offered when the keychain refuses a key (electron mocked)', () => {
  it('is offered when safeStorage really encrypts, and keeps keys sealed in the settings folder', async () => {
    const dir = await tempDir('rd-key-fallback-');
    const fallback = await openKeyFallback(dir, safe({ available: true, backend: 'gnome_libsecret' }), 'linux');
    expect(fallback?.kind).toBe('encrypted-file');
    await fallback!.secrets.set('farm-1', 'RJ-sealed-key-123');
    expect(await readFile(join(dir, ENCRYPTED_KEYS_FILE), 'utf8')).not.toContain('RJ-sealed-key-123');
    expect(await fallback!.secrets.get('farm-1')).toBe('RJ-sealed-key-123');
  });

  it('is not offered when safeStorage would only obfuscate or cannot encrypt', async () => {
    const dir = await tempDir('rd-key-fallback-');
    expect(await openKeyFallback(dir, safe({ available: true, backend: 'basic_text' }), 'linux')).toBeNull();
    expect(await openKeyFallback(dir, safe({ available: false, backend: 'kwallet6' }), 'linux')).toBeNull();
    expect((await openKeyFallback(dir, safe({ available: true, backend: 'unknown' }), 'darwin'))?.kind).toBe('encrypted-file');
  });
});
