import type { Clock } from '../util';

/** Where a transfer stands. */
export interface TransferProgress {
  bytes: number;
  /** Total bytes, when known. */
  total: number | null;
  /** Smoothed throughput in bytes per second. */
  rate: number;
  /** Seconds left at the current rate, when the total is known and the rate is not zero. */
  etaSeconds: number | null;
  /** True on the last event of a transfer. */
  done: boolean;
  /** Bytes of the file already on the farm, not sent (a chunked upload); `total` counts only the bytes to send. */
  reused?: number;
}

/**
 * The one rule for the time left of bytes being moved (upload, pack, download): the bytes left at the
 * meter's rate; 0 once done; null when the total is not known or nothing moves.
 */
export function bytesTimeLeft(p: { bytes: number; total: number | null; rate: number; done: boolean }): number | null {
  if (p.done) return 0;
  if (p.total === null || p.rate <= 0) return null;
  return Math.max(0, p.total - p.bytes) / p.rate;
}

/** Options of a ProgressMeter. */
export interface ProgressMeterOptions {
  clock: Clock;
  total: number | null;
  /** Shortest gap between two reported events (the final one is always reported). */
  intervalMs?: number;
  /** Weight of the newest sample in the moving average of the rate, in (0, 1]. */
  smoothing?: number;
}

/**
 * Counts transferred bytes and turns them into throttled progress events with a smoothed rate and an
 * ETA. Pure apart from the injected clock.
 */
export class ProgressMeter {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #smoothing: number;
  #total: number | null;
  #bytes = 0;
  #rate = 0;
  #startedAt: number;
  #lastAt: number;
  #lastBytes = 0;
  #emitted = false;

  constructor(options: ProgressMeterOptions) {
    this.#clock = options.clock;
    this.#total = options.total;
    this.#intervalMs = options.intervalMs ?? 250;
    this.#smoothing = options.smoothing ?? 0.3;
    this.#startedAt = this.#lastAt = this.#clock.now();
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Sets or corrects the total. */
  setTotal(total: number | null): void {
    this.#total = total;
  }

  /** Starts over from zero bytes (a transfer restarting from scratch) or from `bytes` (a resume). */
  reset(bytes = 0): void {
    this.#bytes = this.#lastBytes = bytes;
    this.#startedAt = this.#lastAt = this.#clock.now();
    this.#emitted = false;
  }

  /** Counts `count` more bytes; returns an event when one is due. */
  add(count: number): TransferProgress | null {
    this.#bytes += count;
    const now = this.#clock.now();
    if (now - this.#lastAt < this.#intervalMs) return null;
    this.#sample(now);
    return this.#snapshot(false);
  }

  /** The final event. */
  finish(): TransferProgress {
    const now = this.#clock.now();
    if (!this.#emitted || now > this.#lastAt) this.#sample(now);
    return this.#snapshot(true);
  }

  /** The current state without waiting for the throttle. */
  peek(): TransferProgress {
    return this.#snapshot(false);
  }

  #sample(now: number) {
    const elapsed = now - this.#lastAt;
    if (elapsed > 0) {
      const instant = ((this.#bytes - this.#lastBytes) * 1000) / elapsed;
      this.#rate = this.#emitted ? this.#smoothing * instant + (1 - this.#smoothing) * this.#rate : instant;
      this.#emitted = true;
    } else if (!this.#emitted && now > this.#startedAt) {
      this.#rate = ((this.#bytes - this.#lastBytes) * 1000) / (now - this.#startedAt);
    }
    this.#lastAt = now;
    this.#lastBytes = this.#bytes;
  }

  #snapshot(done: boolean): TransferProgress {
    const total = this.#total;
    return { bytes: this.#bytes, total, rate: this.#rate, etaSeconds: bytesTimeLeft({ bytes: this.#bytes, total, rate: this.#rate, done }), done };
  }
}
