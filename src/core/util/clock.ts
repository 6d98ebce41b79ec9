/** Time sources passed into logic that waits or measures, so tests can drive time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Waits `ms` milliseconds; rejects with an AbortError as soon as `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Timer functions of the platform, injectable for deterministic tests. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** The real timers. */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
