import { chmod, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretStore, keyFilePath, StoredKeys } from '../../../src/core/secrets';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { RefusingKeychain } from '../../helpers/refusing-keychain';

async function keyFile(): Promise<string> {
  return keyFilePath(join(await mkdtemp(join(tmpdir(), 'rd-keyfile-')), 'settings'));
}

describe('FileSecretStore', () => {
  it('keeps keys in one file only this user can read or write, in a folder only this user can enter', async () => {
    const path = await keyFile();
    const store = new FileSecretStore(path);
    expect(await store.get('farm')).toBeNull();
    await store.set('farm', 'RJ-farm-1');
    await store.set('night', 'RJ-night-1');
    expect(await new FileSecretStore(path).get('farm')).toBe('RJ-farm-1');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(path, '..'))).mode & 0o777).toBe(0o700);
    expect(await store.delete('farm')).toBe(true);
    expect(await store.delete('farm')).toBe(false);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ version: 1, keys: { night: 'RJ-night-1' } });
  });

  it('refuses a file others can read, and a damaged one, saying what to do', async () => {
    const path = await keyFile();
    const store = new FileSecretStore(path);
    await store.set('farm', 'RJ-farm-1');
    await chmod(path, 0o644);
    await expect(store.get('farm')).rejects.toMatchObject({ code: 'key-file-exposed', message: expect.stringContaining('chmod 600') });
    await writeFile(path, '{"version":1,"keys":{"farm":3}}', { mode: 0o600 });
    await chmod(path, 0o600);
    await expect(store.get('farm')).rejects.toMatchObject({ code: 'key-file-damaged' });
  });
});

describe('StoredKeys', () => {
  it('reads a key from where it was put, and says where that is, also when the keychain refuses everything', async () => {
    const file = new FileSecretStore(await keyFile());
    const keys = new StoredKeys({ keychain: new RefusingKeychain(), file });
    await expect(keys.set('farm', 'RJ-farm-1')).rejects.toMatchObject({ code: 'keychain-unavailable' });
    await keys.setIn('file', 'farm', 'RJ-farm-1');
    expect(await keys.get('farm')).toBe('RJ-farm-1');
    expect(await keys.where('farm')).toBe('file');
    expect(await keys.where('other')).toBe('unknown');
    expect(await keys.delete('farm')).toBe(true);
    expect(await file.get('farm')).toBeNull();
  });

  it('moves a key to the keychain when it is stored there, leaving no copy in the file', async () => {
    const file = new FileSecretStore(await keyFile());
    const keys = new StoredKeys({ keychain: new MemorySecretStore(), file });
    await keys.setIn('file', 'farm', 'RJ-farm-1');
    await keys.set('farm', 'RJ-farm-2');
    expect(await keys.where('farm')).toBe('keychain');
    expect(await file.get('farm')).toBeNull();
    expect(await keys.where('none')).toBe('none');
  });
});
