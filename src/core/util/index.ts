/** What other layers use of core/util: the room's public surface. */
export { type Clock, systemClock, systemTimers, type Timers } from './clock';
export { writeFileAtomic } from './atomic-write';
export { abortableSleep, throwIfAborted } from './abortable-sleep';
export { fullJitterDelay, parseRetryAfter } from './backoff';
export type { Sleep } from './clock';
export { runPool } from './concurrency';
export { TypedEmitter } from './typed-emitter';
