import { describe, expect, it } from 'vitest';
import { chooseKeyStore, isPlainTextEncryption, type KeyStoreFacts } from '../../../src/main/keychain/key-store-choice';

const linux: KeyStoreFacts = { keychainAvailable: false, encryptionAvailable: true, platform: 'linux', linuxBackend: 'kwallet5', encryptedFile: '/cfg/keys.safe-storage.json' };

describe('where API keys are kept', () => {
  it('uses the OS keychain whenever it answers (the store renderdrop login writes)', () => {
    expect(chooseKeyStore({ ...linux, keychainAvailable: true })).toEqual({ kind: 'keychain' });
    expect(chooseKeyStore({ ...linux, keychainAvailable: true, encryptionAvailable: false, linuxBackend: 'basic_text' })).toEqual({ kind: 'keychain' });
  });

  it('falls back to a safeStorage-encrypted file when safeStorage really encrypts, and says so', () => {
    const choice = chooseKeyStore(linux);
    expect(choice.kind).toBe('encrypted-file');
    expect(choice.kind !== 'keychain' && choice.note).toMatch(/No system keychain \(Secret Service\) was found/);
    expect(choice.kind !== 'keychain' && choice.note).toContain('/cfg/keys.safe-storage.json');
    expect(choice.kind !== 'keychain' && choice.note).toContain('KWallet');
    expect(choice.kind !== 'keychain' && choice.note).toContain('RENDERDROP_API_KEY');
    expect(chooseKeyStore({ ...linux, linuxBackend: 'gnome_libsecret' }).kind).toBe('encrypted-file');
    expect(chooseKeyStore({ ...linux, platform: 'darwin', linuxBackend: null }).kind).toBe('encrypted-file');
    expect(chooseKeyStore({ ...linux, platform: 'win32', linuxBackend: null }).kind).toBe('encrypted-file');
  });

  it.each(['basic_text', 'unknown'] as const)('refuses plain text: the %s backend means memory only', (backend) => {
    const choice = chooseKeyStore({ ...linux, linuxBackend: backend });
    expect(choice.kind).toBe('memory');
    expect(choice.kind === 'memory' && choice.note).toMatch(/will not write API keys to disk: they last until Renderdrop quits/);
    expect(choice.kind === 'memory' && choice.note).toMatch(/Secret Service/);
  });

  it('keeps keys in memory when safeStorage cannot encrypt at all', () => {
    expect(chooseKeyStore({ ...linux, encryptionAvailable: false }).kind).toBe('memory');
    expect(chooseKeyStore({ ...linux, platform: 'darwin', linuxBackend: null, encryptionAvailable: false }).kind).toBe('memory');
  });

  it('counts only Linux basic_text (or no backend) as plain text', () => {
    expect(isPlainTextEncryption('linux', 'basic_text')).toBe(true);
    expect(isPlainTextEncryption('linux', null)).toBe(true);
    expect(isPlainTextEncryption('linux', 'kwallet6')).toBe(false);
    expect(isPlainTextEncryption('darwin', null)).toBe(false);
    expect(isPlainTextEncryption('win32', null)).toBe(false);
  });
});
