import type { AppEvent, AppEvents, EventName } from '../../shared/contract';

/** Fans the host's events out to every transport listening (IPC windows, SSE clients, tests). */
export class HostEvents {
  readonly #listeners = new Set<(event: AppEvent) => void>();

  /** Subscribes; returns the function that unsubscribes. */
  subscribe(listener: (event: AppEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit<K extends EventName>(name: K, payload: AppEvents[K]): void {
    const event = { name, payload } as AppEvent;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        this.#listeners.delete(listener);
      }
    }
  }
}
