import { ConfigError } from '../../core/errors';
import type { Clock } from '../../core/util';
import type { Profile } from '../../shared/settings';
import type { HostEvents } from '../app/host-events';
import { ConnectionService } from './connection-service';
import type { ProfileBackend } from './profile-backend';
import { ProfileSession, type SessionDeps, type SessionServices } from './profile-session';

/** What the active profile's session needs from the host. */
export interface ActiveSessionDeps {
  /** The profile to open, read at each switch (null: none is chosen). */
  activeProfile: () => Profile | null;
  backendFor: (profile: Profile) => ProfileBackend;
  events: HostEvents;
  clock: Clock;
  /** What every session gets besides its profile, client and connection. */
  environment: Omit<SessionDeps, 'profile' | 'client' | 'connection'>;
}

/**
 * The session of the active profile. Switches run one after another: each closes the open session
 * before opening the next, and every call waits for the switch under way.
 */
export class ActiveSession {
  readonly #deps: ActiveSessionDeps;
  #switching: Promise<void> = Promise.resolve();
  #session: ProfileSession | null = null;

  constructor(deps: ActiveSessionDeps) {
    this.#deps = deps;
  }

  /** The open session, or null (no profile chosen, or a switch under way). */
  get current(): ProfileSession | null {
    return this.#session;
  }

  /** Closes the open session and opens the active profile's, once the switch under way is done. */
  switch(): Promise<void> {
    this.#switching = this.#switching.then(() => this.#open());
    return this.#switching;
  }

  /** The open session once switching is done; throws when no profile is active. */
  async active(): Promise<ProfileSession> {
    await this.#switching;
    if (!this.#session) throw new ConfigError('No profile is active. Choose one in Settings.', { code: 'no-profile' });
    return this.#session;
  }

  /** The services of the open session (throws when its server cannot be used). */
  async services(): Promise<SessionServices> {
    return (await this.active()).services();
  }

  /** Resolves once the active profile's job list has been loaded (or failed to). */
  async ready(): Promise<void> {
    await this.#switching;
    await this.#session?.whenLoaded();
  }

  /** Closes the open session once switching is done. */
  async close(): Promise<void> {
    await this.#switching;
    await this.#session?.close();
    this.#session = null;
  }

  async #open(): Promise<void> {
    const { events, clock } = this.#deps;
    await this.#session?.close();
    this.#session = null;
    const profile = this.#deps.activeProfile();
    if (!profile) {
      events.emit('jobs.reset', { profileId: null });
      return;
    }
    let connection: ConnectionService | null = null;
    const { client, blocked } = await this.#deps.backendFor(profile).connect((info) => connection?.retrying(info));
    connection = new ConnectionService({ events, clock, blocked });
    this.#session = new ProfileSession({ profile, client, connection, ...this.#deps.environment });
    await this.#session.start();
    events.emit('jobs.reset', { profileId: profile.id });
    events.emit('connection.changed', this.#session.connection);
  }
}
