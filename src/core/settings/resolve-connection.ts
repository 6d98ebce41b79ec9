import { sameServer, trimBaseUrl, THIS_COMPUTER_PROFILE_ID, type Settings } from '../../shared/settings';
import { ConfigError } from '../errors';
import type { SecretStore } from '../secrets/secret-store';

/** Where the server address and key of a connection came from. */
export type ConnectionSource = 'env' | 'keychain' | 'none';

/** The server to talk to and the key to use. */
export interface Connection {
  baseUrl: string;
  apiKey: string | null;
  /** Profile the connection belongs to (null when only the environment defines it). */
  profileId: string | null;
  /** Where the key came from. */
  source: ConnectionSource;
  /** Where the base URL came from. */
  baseUrlSource: 'env' | 'profile';
}

/**
 * The connection of the active profile, with `RENDERDROP_BASE_URL` and `RENDERDROP_API_KEY` overriding
 * it (for pipelines). A profile's stored key is only used for that profile's own server, never sent to
 * another address named by `RENDERDROP_BASE_URL`. "This computer" without a key of its own uses the key
 * the app keeps for its local node (`localNodeKeyAccount`), so the CLI talks to the app's node. Throws a ConfigError when there is no server to talk to at all.
 */
export async function resolveConnection(
  settings: Settings,
  secrets: SecretStore,
  env: Record<string, string | undefined>,
  options: { localNodeKeyAccount?: string } = {},
): Promise<Connection> {
  const profile = settings.profiles.find((p) => p.id === settings.activeProfileId) ?? null;
  const envUrl = env.RENDERDROP_BASE_URL?.trim() || null;
  const envKey = env.RENDERDROP_API_KEY?.trim() || null;
  const baseUrl = envUrl ?? profile?.baseUrl ?? null;
  if (baseUrl === null) {
    throw new ConfigError('No server is set up. Add one with `renderdrop profile add`, or set RENDERDROP_BASE_URL.', { code: 'no-profile' });
  }
  const normalised = trimBaseUrl(baseUrl);
  const profileServer = profile !== null && sameServer(profile.baseUrl, normalised);
  const common = { baseUrl: normalised, profileId: profileServer ? profile.id : null, baseUrlSource: envUrl ? ('env' as const) : ('profile' as const) };
  if (envKey) return { ...common, apiKey: envKey, source: 'env' };
  if (profile && profileServer) {
    let stored = await secrets.get(profile.id);
    if (!stored && profile.id === THIS_COMPUTER_PROFILE_ID && options.localNodeKeyAccount) {
      stored = await secrets.get(options.localNodeKeyAccount).catch(() => null);
    }
    if (stored) return { ...common, apiKey: stored, source: 'keychain' };
  }
  return { ...common, apiKey: null, source: 'none' };
}

/** The connection's key, or a ConfigError telling the person how to set one. */
export function requireApiKey(connection: Connection): string {
  if (connection.apiKey) return connection.apiKey;
  throw new ConfigError('No API key is set for this server. Run `renderdrop login`, or set RENDERDROP_API_KEY.', { code: 'no-api-key' });
}
