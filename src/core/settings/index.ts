/** What other layers use of core/settings: the room's public surface. */
export { type Connection, requireApiKey, resolveConnection } from './resolve-connection';
export { effectiveDownloadDir, SettingsStore } from './settings-store';
