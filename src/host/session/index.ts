/** What other rooms of host use of host/session: the room's public surface. */
export { ActiveSession } from './active-session';
