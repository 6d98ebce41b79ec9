/** Linux password stores Electron's safeStorage can use; `basic_text` encrypts with a fixed key. */
export type SafeStorageBackend = 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown';

/** What is known about this machine's key storage. */
export interface KeyStoreFacts {
  /** The OS keychain answered (the store the CLI uses). */
  keychainAvailable: boolean;
  /** safeStorage can encrypt at all. */
  encryptionAvailable: boolean;
  platform: NodeJS.Platform;
  /** safeStorage's Linux backend (null elsewhere). */
  linuxBackend: SafeStorageBackend | null;
  /** Where encrypted keys would be written. */
  encryptedFile: string;
}

/** Where the app keeps API keys, and what Settings says about it when it is not the keychain. */
export type KeyStoreChoice =
  | { kind: 'keychain' }
  | { kind: 'encrypted-file'; note: string }
  | { kind: 'memory'; note: string };

/**
 * Whether safeStorage would only obfuscate: on Linux the `basic_text` backend (and `unknown`, which
 * means nothing was chosen) encrypts with a key written in Chromium itself, so it counts as plain text.
 */
export function isPlainTextEncryption(platform: NodeJS.Platform, backend: SafeStorageBackend | null): boolean {
  return platform === 'linux' && (backend === null || backend === 'basic_text' || backend === 'unknown');
}

const BACKEND_NAMES: Record<SafeStorageBackend, string> = {
  basic_text: 'no password store',
  gnome_libsecret: 'the GNOME keyring',
  kwallet: 'KWallet',
  kwallet5: 'KWallet',
  kwallet6: 'KWallet',
  unknown: 'no password store',
};

/**
 * The OS keychain when it answers (shared with `renderdrop login`); else a file encrypted with
 * Electron's safeStorage when that really encrypts; else memory only: a key is never written in
 * plain text.
 */
export function chooseKeyStore(facts: KeyStoreFacts): KeyStoreChoice {
  if (facts.keychainAvailable) return { kind: 'keychain' };
  const keychain = facts.platform === 'linux' ? 'No system keychain (Secret Service) was found' : 'The system keychain could not be reached';
  if (facts.encryptionAvailable && !isPlainTextEncryption(facts.platform, facts.linuxBackend)) {
    const by = facts.platform === 'linux' && facts.linuxBackend ? `with a key kept by ${BACKEND_NAMES[facts.linuxBackend]}` : "with the system's encryption";
    return {
      kind: 'encrypted-file',
      note: `${keychain}, so API keys are stored in ${facts.encryptedFile}, encrypted ${by}. The renderdrop command cannot read them there: give it RENDERDROP_API_KEY, or set up a keychain and enter the keys again.`,
    };
  }
  const fix = facts.platform === 'linux' ? 'Install and unlock a Secret Service (GNOME Keyring, KWallet or KeePassXC)' : 'Unlock the system keychain';
  return {
    kind: 'memory',
    note: `${keychain} and this system offers no encryption for stored secrets, so Renderdrop will not write API keys to disk: they last until Renderdrop quits. ${fix}, then restart Renderdrop to keep them.`,
  };
}
