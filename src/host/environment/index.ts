/** What other rooms of host use of host/environment: the room's public surface. */
export { AppPreferences, MAX_RENDERS_AT_ONCE, type StoredNodeSettings } from './app-preferences';
export { HiddenJobs } from './hidden-jobs';
export { HostEvents } from './host-events';
export { notifier, type Notify } from './notifier';
export type { SessionEnvironment } from './session-environment';
