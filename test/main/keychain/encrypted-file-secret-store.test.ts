import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EncryptedFileSecretStore, type StringCipher } from '../../../src/main/keychain/encrypted-file-secret-store';
import { tempDir } from '../../helpers/scene-files';

vi.mock('electron', () => ({}));

/** A reversible stand-in for safeStorage (XOR), good enough to prove nothing is stored in clear. */
function xorCipher(reEncrypt = false): StringCipher & { decrypts: number } {
  const flip = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
  const cipher = {
    decrypts: 0,
    encrypt: async (text: string) => flip(Buffer.from(`sealed:${text}`)),
    decrypt: async (data: Buffer) => {
      cipher.decrypts++;
      return { text: flip(data).toString().replace(/^sealed:/, ''), reEncrypt };
    },
  };
  return cipher;
}

describe('EncryptedFileSecretStore', () => {
  it('keeps keys encrypted in a 0600 file, one per profile', async () => {
    const dir = await tempDir('rd-keys-');
    const path = join(dir, 'nested', 'keys.json');
    const store = new EncryptedFileSecretStore(path, xorCipher());
    expect(await store.get('farm')).toBeNull();
    await Promise.all([store.set('farm', 'RJ-secret-farm-key'), store.set('other', 'RJ-other-key')]);
    expect(await store.get('farm')).toBe('RJ-secret-farm-key');
    expect(await store.get('other')).toBe('RJ-other-key');
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('RJ-secret');
    expect(JSON.parse(text)).toMatchObject({ version: 1, keys: { farm: expect.any(String), other: expect.any(String) } });
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await store.delete('farm')).toBe(true);
    expect(await store.delete('farm')).toBe(false);
    expect(await store.get('farm')).toBeNull();
    expect(await store.get('other')).toBe('RJ-other-key');
    expect(await store.isAvailable()).toBe(true);
  });

  it('encrypts a key again when the cipher says its key was rotated', async () => {
    const dir = await tempDir('rd-keys-');
    const path = join(dir, 'keys.json');
    await new EncryptedFileSecretStore(path, xorCipher()).set('farm', 'RJ-key-1234');
    const before = await readFile(path, 'utf8');
    const rotating = xorCipher(true);
    const encrypt = vi.spyOn(rotating, 'encrypt');
    expect(await new EncryptedFileSecretStore(path, rotating).get('farm')).toBe('RJ-key-1234');
    expect(encrypt).toHaveBeenCalledWith('RJ-key-1234');
    expect(JSON.parse(await readFile(path, 'utf8')).keys.farm).toBe(JSON.parse(before).keys.farm);
  });

  it('says what to do when the file is damaged or a key cannot be decrypted', async () => {
    const dir = await tempDir('rd-keys-');
    const path = join(dir, 'keys.json');
    await writeFile(path, '{"version":1,"keys":');
    await expect(new EncryptedFileSecretStore(path, xorCipher()).get('farm')).rejects.toThrow(/is damaged\. Delete it and enter the API keys again/);
    await writeFile(path, JSON.stringify({ version: 1, keys: { farm: 'AAAA' } }));
    const broken: StringCipher = { encrypt: async () => Buffer.alloc(0), decrypt: async () => Promise.reject(new Error('bad MAC')) };
    await expect(new EncryptedFileSecretStore(path, broken).get('farm')).rejects.toThrow(/could not be decrypted \(bad MAC\)\. Enter it again in Settings > Profiles/);
  });
});
