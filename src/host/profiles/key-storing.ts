import { ConfigError } from '../../core/errors';
import type { KeyPlace } from '../../shared/contract';
import type { Profile } from '../../shared/settings';
import { keychainReason } from './keychain-refusal';
import type { ProfileKeys } from './profile-keys';

/**
 * Stores a profile's key in the keychain; when the keychain refuses it, where the artist chose
 * (`keyPlace`: the encrypted file, the key file or this run only). Without a choice a refused key is not kept
 * anywhere, and the error (code `key-not-stored`) says why and what the artist can choose instead.
 */
export async function storeKey(keys: ProfileKeys, request: { profile: Profile; apiKey: string; keyPlace: KeyPlace | undefined; adding: boolean }): Promise<void> {
  const { profile, apiKey, keyPlace } = request;
  try {
    await keys.set(profile.id, apiKey);
    return;
  } catch (error) {
    if (keyPlace) {
      await keys.keep(profile.id, apiKey, keyPlace);
      return;
    }
    const why = keychainReason(error);
    const place =
      keys.fallbackKind === 'encrypted-file'
        ? 'in an encrypted file in the settings folder, or only until Renderdrop quits'
        : keys.fallbackKind === 'file'
          ? 'in a file in the settings folder that only your user account can read, or only until Renderdrop quits'
          : 'only until Renderdrop quits';
    const outcome = request.adding
      ? `"${profile.name}" was not added: the system keychain refused to store its key${why}. Unlock the keychain and add it again, or keep the key ${place}.`
      : `The key of "${profile.name}" was not saved: the system keychain refused to store it${why}. Unlock the keychain and save it again, or keep the key ${place}.`;
    throw new ConfigError(outcome, { code: 'key-not-stored' });
  }
}

