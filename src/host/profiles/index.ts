/** What other rooms of host use of host/profiles: the room's public surface. */
export { ConnectionService } from './connection-service';
export type { LocalNode } from './local-node';
export { LocalProfile } from './local-profile';
export type { ProfileBackend, ProfileConnection } from './profile-backend';
