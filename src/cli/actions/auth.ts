import { ApiClient, type RetryInfo } from '../../core/api';
import { AuthError, ConfigError, isAbort, RenderdropError } from '../../core/errors';
import { KEY_FILE_MEANING, type KeyLocation } from '../../core/secrets';
import { sameServer, trimBaseUrl, type Profile } from '../../shared/settings';
import { CommandFailedError, UsageError } from '../cli-errors';
import { findProfile, isLoopbackUrl } from '../session';
import { type CliContext } from '../context';

/** `renderdrop logout`: removes the key of a profile from the keychain. */
export async function logout(ctx: CliContext, opts: { profile?: string }): Promise<void> {
  const profile = targetProfile(ctx, opts.profile);
  if (!profile) throw new UsageError(`No profile "${opts.profile}". List them with \`renderdrop profile list\`.`);
  const removed = await ctx.secrets.delete(profile.id);
  ctx.io.stdout.write(removed ? `Removed the stored API key of "${profile.name}".\n` : `No key was stored for "${profile.name}".\n`);
}

/** `renderdrop login`: checks a key with the server and stores it in the keychain, or in the key file when asked (`--store file`). */
export async function login(ctx: CliContext, opts: { profile?: string; baseUrl?: string; store?: KeyLocation }): Promise<void> {
  const place = opts.store ?? 'keychain';
  const existing = targetProfile(ctx, opts.profile);
  if (!existing && !opts.baseUrl) {
    throw new UsageError(`No profile "${opts.profile}". Create it by adding its address: renderdrop login --profile "${opts.profile}" --base-url <url>`);
  }
  const name = existing?.name ?? opts.profile!.trim();
  const baseUrl = opts.baseUrl ?? existing!.baseUrl;
  const interrupt = ctx.listenForInterrupt();
  try {
    const key = await ctx.prompt.secret(`API key for "${name}" (${baseUrl}): `);
    if (key === '') {
      throw new UsageError('No API key was given. Type it at the prompt, or pipe it in: printf %s "$KEY" | renderdrop login');
    }
    await verifyKey(baseUrl, key, interrupt.signal, (info) => ctx.reportRetry(info));
    const store = ctx.settings();
    let profile: Profile;
    if (!existing) profile = store.addProfile({ name, baseUrl, kind: isLoopbackUrl(baseUrl) ? 'local' : 'cloud' });
    else if (baseUrl !== existing.baseUrl) profile = store.updateProfile(existing.id, { baseUrl, kind: isLoopbackUrl(baseUrl) ? 'local' : 'cloud' });
    else profile = existing;
    await storeKey(ctx, place, profile.id, key);
    const where = place === 'file' ? `in ${ctx.secrets.file.path} (not encrypted; only your user account can read it)` : 'in the system keychain';
    const lines = [`Logged in to "${profile.name}" (${baseUrl}). The key is ${where}.`];
    if (store.get().activeProfileId !== profile.id) lines.push(`Make it the active profile with: renderdrop profile use "${profile.name}"`);
    if (ctx.io.env.RENDERDROP_API_KEY?.trim()) lines.push('Note: RENDERDROP_API_KEY is set in this shell and is used instead of the stored key.');
    const envUrl = ctx.io.env.RENDERDROP_BASE_URL ? trimBaseUrl(ctx.io.env.RENDERDROP_BASE_URL) : '';
    if (envUrl && !sameServer(envUrl, baseUrl)) lines.push(`Note: RENDERDROP_BASE_URL is set in this shell, so commands talk to ${envUrl} instead.`);
    ctx.io.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    interrupt.dispose();
  }
}

/** Stores the key where asked; a keychain that refuses it is an error that names the file store as the choice left. */
async function storeKey(ctx: CliContext, place: KeyLocation, profileId: string, key: string): Promise<void> {
  try {
    await ctx.secrets.setIn(place, profileId, key);
  } catch (error) {
    if (place !== 'keychain' || !(error instanceof ConfigError) || error.code !== 'keychain-unavailable') throw error;
    const reason = /system keychain \(([^)]{1,200})\)/.exec(error.message)?.[1];
    throw new ConfigError(
      `The system keychain refused the key${reason ? ` (${reason})` : ''}, so it was not stored. Unlock the keychain and log in again, or keep it in a file with \`renderdrop login --store file\`. ${KEY_FILE_MEANING}`,
      { code: 'keychain-unavailable' },
    );
  }
}

/** Asks the server for one job with the key; a refusal or failure stores nothing. */
async function verifyKey(baseUrl: string, apiKey: string, signal: AbortSignal, onRetry: (info: RetryInfo) => void): Promise<void> {
  const client = new ApiClient({ baseUrl, apiKey, retry: { rateLimitRetries: 3, transientRetries: 1 }, timeoutMs: 30_000, onRetry });
  try {
    await client.listJobs({ page: 1, pageSize: 1 }, { signal });
  } catch (error) {
    if (isAbort(error)) throw error;
    if (error instanceof AuthError) {
      throw new AuthError(`${baseUrl} rejected this API key (${error.status ?? 'refused'}). Nothing was stored; check the key and run \`renderdrop login\` again.`, {
        ...(error.status !== undefined ? { status: error.status } : {}),
      });
    }
    const reason = error instanceof RenderdropError ? error.message : String(error);
    throw new CommandFailedError(`Could not check the key with ${baseUrl}, so nothing was stored. ${reason}`);
  }
}

function targetProfile(ctx: CliContext, name: string | undefined): Profile | null {
  const store = ctx.settings();
  return name === undefined ? store.activeProfile() : findProfile(store, name);
}
