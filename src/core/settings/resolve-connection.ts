import { sameServer, trimBaseUrl, THIS_COMPUTER_PROFILE_ID, type Settings } from '../../shared/settings';
import { ConfigError } from '../errors';
import type { SecretStore } from '../secrets';

/** Where the server address and key of a connection came from. */
export type ConnectionSource = 'env' | 'keychain' | 'app' | 'none';

/** The server to talk to and the key to use. */
export interface Connection {
  baseUrl: string;
  apiKey: string | null;
  /** Profile the connection belongs to (null when only the environment defines it). */
  profileId: string | null;
  /** Where the key came from. */
  source: ConnectionSource;
  /** Where the base URL came from (`app`: the running app's `local-client.json`). */
  baseUrlSource: 'env' | 'profile' | 'app';
}

/** What the running app tells clients on this computer about its node (`local-client.json`), and where "This computer" is otherwise. */
export interface LocalNodeHint {
  /** The app's node and a key for local clients, while the app runs; null when it does not. */
  client: { url: string; apiKey: string } | null;
  /** Where "This computer" is looked for when the app does not run (a `renderdrop node serve`). */
  defaultUrl: string;
}

/**
 * The connection of the active profile, with `RENDERDROP_BASE_URL` and `RENDERDROP_API_KEY` overriding
 * it (for pipelines). A profile's stored key is only used for that profile's own server, never sent to
 * another address named by `RENDERDROP_BASE_URL`. "This computer", with neither variable set, is the
 * running app's node at the address and with the key the app published for local clients; when the
 * app does not run, it is `defaultUrl` with the profile's own stored key, so the app's key never goes
 * to a node that is not the app's. Throws a ConfigError when there is no server to talk to at all.
 */
export async function resolveConnection(
  settings: Settings,
  secrets: SecretStore,
  env: Record<string, string | undefined>,
  options: { localNode?: LocalNodeHint } = {},
): Promise<Connection> {
  const profile = settings.profiles.find((p) => p.id === settings.activeProfileId) ?? null;
  const envUrl = env.RENDERDROP_BASE_URL?.trim() || null;
  const envKey = env.RENDERDROP_API_KEY?.trim() || null;
  const local = profile?.id === THIS_COMPUTER_PROFILE_ID && !envUrl && !envKey ? options.localNode : undefined;
  if (local?.client) {
    return { baseUrl: trimBaseUrl(local.client.url), apiKey: local.client.apiKey, profileId: THIS_COMPUTER_PROFILE_ID, source: 'app', baseUrlSource: 'app' };
  }
  const baseUrl = envUrl ?? local?.defaultUrl ?? profile?.baseUrl ?? null;
  if (baseUrl === null) {
    throw new ConfigError('No server is set up. Add one with `renderdrop profile add`, or set RENDERDROP_BASE_URL.', { code: 'no-profile' });
  }
  const normalised = trimBaseUrl(baseUrl);
  const profileServer = profile !== null && (local !== undefined || sameServer(profile.baseUrl, normalised));
  const common = { baseUrl: normalised, profileId: profileServer ? profile.id : null, baseUrlSource: envUrl ? ('env' as const) : ('profile' as const) };
  if (envKey) return { ...common, apiKey: envKey, source: 'env' };
  if (profile && profileServer) {
    const stored = await secrets.get(profile.id);
    if (stored) return { ...common, apiKey: stored, source: 'keychain' };
  }
  return { ...common, apiKey: null, source: 'none' };
}

/** The connection's key, or a ConfigError telling the person how to set one. */
export function requireApiKey(connection: Connection): string {
  if (connection.apiKey) return connection.apiKey;
  throw new ConfigError('No API key is set for this server. Run `renderdrop login`, or set RENDERDROP_API_KEY.', { code: 'no-api-key' });
}
