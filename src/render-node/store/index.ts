/** What other layers use of render-node/store: the room's public surface. */
export { openDatabase } from './db';
export { createKey, listKeys, revokeKey } from './keys';
