/** What other rooms of host use of host/app: the room's public surface. */
export type { AppViews } from './app-views';
