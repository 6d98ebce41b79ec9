import type { Clock, Sleep, Timers } from '../../src/core/util/clock';
import { AbortError } from '../../src/core/errors';

/**
 * Manual time for deterministic tests: `sleep` records the wait and advances the clock at once;
 * timers fire only when the test calls `advance` or `runNext`.
 */
export class FakeTime implements Clock {
  current: number;
  readonly sleeps: number[] = [];
  readonly #timers: { at: number; callback: () => void; id: number }[] = [];
  #nextId = 1;

  constructor(start = Date.parse('2025-01-01T00:00:00Z')) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  readonly sleep: Sleep = async (ms, signal) => {
    if (signal?.aborted) throw new AbortError();
    this.sleeps.push(ms);
    this.current += ms;
  };

  readonly timers: Timers = {
    setTimeout: (callback, ms) => {
      const id = this.#nextId++;
      this.#timers.push({ at: this.current + ms, callback, id });
      return id;
    },
    clearTimeout: (handle) => {
      const index = this.#timers.findIndex((t) => t.id === handle);
      if (index >= 0) this.#timers.splice(index, 1);
    },
  };

  /** Delays of the pending timers, soonest first. */
  pending(): number[] {
    return this.#timers.map((t) => t.at - this.current).sort((a, b) => a - b);
  }

  /** Fires the soonest timer (advancing the clock to it); false when none is pending. */
  runNext(): boolean {
    this.#timers.sort((a, b) => a.at - b.at);
    const timer = this.#timers.shift();
    if (!timer) return false;
    this.current = Math.max(this.current, timer.at);
    timer.callback();
    return true;
  }
}
