/** What other layers use of core/util: the room's public surface. */
export { type Clock, systemClock, systemTimers, type Timers } from './clock';
