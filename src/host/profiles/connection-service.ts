import type { RetryInfo } from '../../core/api';
import type { Clock } from '../../core/util';
import type { ConnectionState } from '../../shared/contract';
import { connectionStateFor, sameConnectionState } from './connection-state';
import type { HostEvents } from '../environment';

/**
 * Whether one session's server can be used, announced on every change. A profile that cannot be
 * used (`blocked`) keeps saying why even when its server answers. Once closed it says nothing more,
 * so a retry of a client from a closed session never changes the state of the session after it.
 */
export class ConnectionService {
  #state: ConnectionState;
  #closed = false;
  readonly #events: HostEvents;
  readonly #clock: Clock;
  readonly #blocked: ConnectionState | null;

  constructor(options: { events: HostEvents; clock: Clock; blocked: ConnectionState | null }) {
    this.#events = options.events;
    this.#clock = options.clock;
    this.#blocked = options.blocked;
    this.#state = options.blocked ?? { state: 'starting', message: 'Connecting…' };
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Sets the state (a blocked profile stays blocked) and announces a change. */
  set(next: ConnectionState): void {
    if (this.#closed) return;
    const state = this.#blocked && next.state === 'ok' ? this.#blocked : next;
    if (sameConnectionState(this.#state, state)) return;
    this.#state = state;
    this.#events.emit('connection.changed', state);
  }

  /** The server answered. */
  answered(): void {
    if (this.#state.state !== 'ok' && this.#state.state !== 'starting') this.set({ state: 'ok' });
  }

  /** A request failed; the next try is in `retryInMs`. */
  failed(error: unknown, retryInMs: number): void {
    this.set(connectionStateFor(error, retryInMs, new Date(this.#clock.now())));
  }

  /** The API client waits before trying again (rate limit, network). */
  retrying(info: Pick<RetryInfo, 'reason' | 'delayMs'>): void {
    const since = new Date(this.#clock.now()).toISOString();
    const retryInSeconds = Math.max(1, Math.ceil(info.delayMs / 1000));
    if (info.reason === 'rate-limited') {
      this.set({ state: 'rate-limited', message: 'The server asked to slow down; Renderdrop is waiting before asking again.', retryInSeconds, since });
    } else {
      this.set({ state: 'unreachable', message: 'The server is not answering; Renderdrop keeps trying.', retryInSeconds, since });
    }
  }

  /** Stops announcing anything. */
  close(): void {
    this.#closed = true;
  }
}
