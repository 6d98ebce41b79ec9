import { isAbort } from '../errors';
import type { FrameFollower } from './frames-on-disk';

/** What a live follow reports besides frames on disk. */
export interface LiveFrameFollowOptions {
  /** A pass failed (the next one tries again; the download at the end completes the folder). */
  onError?: (error: unknown) => void;
}

/**
 * Runs a FrameFollower's passes while a job renders, one pass per `poke` (a tracking tick that saw the
 * job's frames change): never two at once, and pokes that come during a pass make one more pass after
 * it, so the frames route is called at most once per tick. A failed pass is reported and the follow
 * goes on; `settle` waits for the pass under way.
 */
export class LiveFrameFollow {
  readonly #follower: FrameFollower;
  readonly #options: LiveFrameFollowOptions;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;

  constructor(follower: FrameFollower, options: LiveFrameFollowOptions = {}) {
    this.#follower = follower;
    this.#options = options;
  }

  /** Asks for a pass (coalesced with one under way). */
  poke(): void {
    if (this.#stopped || !this.#follower.supported) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#loop().finally(() => {
      this.#running = null;
    });
  }

  /** Stops asking for passes and waits for the one under way. */
  async settle(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#follower.pass();
      } catch (error) {
        if (isAbort(error)) return;
        this.#options.onError?.(error);
      }
    } while (this.#again && !this.#stopped);
  }
}
