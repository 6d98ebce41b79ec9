import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { THIS_COMPUTER_PROFILE_ID } from '../../shared/settings';

/** Port the render node of "This computer" listens on when it is free. */
export const THIS_COMPUTER_PORT = 8787;

/** Where the app keeps the data of the render node of "This computer", inside the settings folder. */
export function localNodeDataDir(configDir: string): string {
  return join(configDir, 'node');
}

/**
 * The secret-store account of the app's key for a local node: one per node data folder, so apps with
 * different `RENDERDROP_CONFIG_DIR`s never overwrite each other's key, and the CLI finds the app's key.
 */
export function localKeyAccount(dataDir: string): string {
  return `${THIS_COMPUTER_PROFILE_ID}:${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16)}`;
}
