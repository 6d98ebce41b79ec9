/** What other layers use of core/secrets: the room's public surface. */
export { KeyringSecretStore } from './keyring-secret-store';
export { localKeyAccount, localNodeDataDir, THIS_COMPUTER_PORT } from './local-node-key';
export { MemorySecretStore } from './memory-secret-store';
export { type SecretStore } from './secret-store';
export { FileSecretStore, KEY_FILE_MEANING, KEY_FILE_NAME, keyFilePath } from './file-secret-store';
export { type KeyLocation, StoredKeys } from './stored-keys';
export { AbsentKeychain } from './absent-keychain';
export { type LocalClientInfo, localClientFilePath, readLocalClientFile, removeOwnLocalClientFile, writeLocalClientFile } from './local-client-file';
