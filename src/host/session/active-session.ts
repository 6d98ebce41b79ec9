import { ConfigError, serializeError } from '../../core/errors';
import type { Clock } from '../../core/util';
import type { Profile } from '../../shared/settings';
import type { ConnectionState } from '../../shared/contract';
import type { HostEvents } from '../environment';
import { ConnectionService, type ProfileBackend, type ProfileConnection } from '../profiles';
import { ProfileSession, type SessionDeps, type SessionServices } from './profile-session';

/** What the active profile's session needs from the host. */
export interface ActiveSessionDeps {
  /** The profile to open, read at each switch (null: none is chosen). */
  activeProfile: () => Profile | null;
  /** A profile by id (null when it no longer exists). */
  profileById: (profileId: string) => Profile | null;
  /** Records the profile a switch opened as the active one. */
  makeActive: (profileId: string) => void;
  backendFor: (profile: Profile) => ProfileBackend;
  events: HostEvents;
  clock: Clock;
  /** What every session gets besides its profile, client and connection. */
  environment: Omit<SessionDeps, 'profile' | 'client' | 'connection'>;
}

/**
 * The session of the active profile. Switches wait in line, one after another, and a failed one
 * never blocks those after it. A switch to another profile first makes sure that profile can be
 * opened (its key can be read, its server answers); only then is it made the active one. When it
 * cannot, the open session and the active profile stay as they were and the switch fails saying why.
 */
export class ActiveSession {
  readonly #deps: ActiveSessionDeps;
  #queue: Promise<void> = Promise.resolve();
  #session: ProfileSession | null = null;

  constructor(deps: ActiveSessionDeps) {
    this.#deps = deps;
  }

  /** The open session, or null (no profile chosen, or a switch under way). */
  get current(): ProfileSession | null {
    return this.#session;
  }

  /**
   * Once the switches before it are done, opens the session of `profileId` (making it the active
   * profile) or, without one, reopens the active profile's; rejects when this switch failed.
   */
  switch(profileId?: string): Promise<void> {
    const run = this.#queue.then(() => this.#open(profileId));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** The open session once switching is done; throws when no profile is active. */
  async active(): Promise<ProfileSession> {
    await this.#queue;
    if (!this.#session) throw new ConfigError('No profile is active. Choose one in Settings.', { code: 'no-profile' });
    return this.#session;
  }

  /** The services of the open session (throws when its server cannot be used). */
  async services(): Promise<SessionServices> {
    return (await this.active()).services();
  }

  /** Resolves once the active profile's job list has been loaded (or failed to). */
  async ready(): Promise<void> {
    await this.#queue;
    await this.#session?.whenLoaded();
  }

  /** Closes the open session once switching is done. */
  async close(): Promise<void> {
    await this.#queue;
    await this.#session?.close();
    this.#session = null;
  }

  async #open(profileId: string | undefined): Promise<void> {
    const { events, clock } = this.#deps;
    const previous = this.#session;
    const profile = profileId === undefined ? this.#deps.activeProfile() : this.#deps.profileById(profileId);
    if (profileId !== undefined && !profile) throw new ConfigError('That profile no longer exists.', { code: 'no-profile' });
    if (!profile) {
      await previous?.close();
      this.#session = null;
      events.emit('jobs.reset', { profileId: null });
      return;
    }
    let connection: ConnectionService | null = null;
    const onRetry: Parameters<ProfileBackend['connect']>[0] = (info) => connection?.retrying(info);
    const opened = await this.#connect(profile, previous, onRetry);
    if (profileId !== undefined) this.#deps.makeActive(profileId);
    await previous?.close();
    connection = new ConnectionService({ events, clock, blocked: opened.blocked });
    const session = new ProfileSession({ profile, client: opened.client, connection, ...this.#deps.environment });
    this.#session = session;
    try {
      await session.start();
    } finally {
      events.emit('jobs.reset', { profileId: profile.id });
      events.emit('connection.changed', session.connection);
    }
  }

  /**
   * Connects to `profile`. Moving from another open profile, the server must answer and a failure
   * keeps that profile; reopening the same profile (or the first one) gives a session saying why.
   */
  async #connect(profile: Profile, previous: ProfileSession | null, onRetry: Parameters<ProfileBackend['connect']>[0]): Promise<ProfileConnection> {
    const moving = previous !== null && previous.profile.id !== profile.id;
    try {
      return await this.#deps.backendFor(profile).connect(onRetry, { mustAnswer: moving });
    } catch (error) {
      if (!previous || !moving) return { client: null, blocked: cannotOpen(error, new Date(this.#deps.clock.now())) };
      const reason = serializeError(error).message.trim().replace(/([^.!?])$/, '$1.');
      throw new ConfigError(`Could not switch to "${profile.name}": ${reason} Renderdrop is still using "${previous.profile.name}".`, { code: 'switch-failed' });
    }
  }
}

/** What a session that could not connect says. */
function cannotOpen(error: unknown, now: Date): ConnectionState {
  const { message, code } = serializeError(error);
  if (code === 'keychain-unavailable' || code === 'key-unreadable') return { state: 'no-key', message };
  return { state: 'unreachable', message, retryInSeconds: 0, since: now.toISOString() };
}
