/** What other layers use of core/tracking: the room's public surface. */
export { JobTracker, type TrackerSource } from './tracker';
export type { FrameProgress } from './tracker';
