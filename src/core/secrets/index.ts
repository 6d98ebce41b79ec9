/** What other layers use of core/secrets: the room's public surface. */
export { KeyringSecretStore } from './keyring-secret-store';
export { localKeyAccount, localNodeDataDir, THIS_COMPUTER_PORT } from './local-node-key';
export { MemorySecretStore } from './memory-secret-store';
export { type SecretStore } from './secret-store';
