import { ConfigError } from '../../core/errors';
import type { SettingsStore } from '../../core/settings';
import { type Profile, sameServer, trimBaseUrl } from '../../shared/settings';
import { THIS_COMPUTER_PROFILE_ID } from '../../shared/contract';
import type { AppViews } from '../app';
import type { NamespaceHandlers } from '../namespace-handlers';
import type { ActiveSession } from '../session';
import { refuseRejectedKey } from './key-check';
import { storeKey } from './key-storing';
import type { ProfileKeys } from './profile-keys';
import { testConnectionTo, untested, type ProfileBackend } from './profile-backend';

/** What the profile calls need. */
export interface ProfileHandlerDeps {
  store: SettingsStore;
  secrets: ProfileKeys;
  backendFor: (profile: Profile) => ProfileBackend;
  views: AppViews;
  sessions: ActiveSession;
}

/**
 * The `profiles.*` calls: add, change, remove and choose profiles, and set, clear and test their keys.
 * A change to the active profile reopens its session.
 */
export function profileHandlers(deps: ProfileHandlerDeps): NamespaceHandlers<'profiles'> {
  const { store, secrets, backendFor, views, sessions } = deps;
  const byId = (id: string) => profileById(store, id);
  const restartIfActive = async (id: string) => {
    if (store.get().activeProfileId === id) await sessions.switch();
  };
  return {
    'profiles.add': async ({ name, baseUrl, apiKey, keyPlace }) => {
      if (apiKey) await refuseRejectedKey(trimBaseUrl(baseUrl), apiKey);
      const profile = store.addProfile({ name, baseUrl: trimBaseUrl(baseUrl), kind: 'cloud' });
      if (apiKey) {
        await storeKey(secrets, { profile, apiKey, keyPlace, adding: true }).catch((error: unknown) => {
          store.removeProfile(profile.id);
          throw error;
        });
      }
      await views.announce();
      return views.profile(profile);
    },
    'profiles.update': async ({ profileId, name, baseUrl }) => {
      const before = byId(profileId);
      backendFor(before).refuseChange('address');
      const profile = store.updateProfile(profileId, { ...(name ? { name } : {}), ...(baseUrl ? { baseUrl: trimBaseUrl(baseUrl) } : {}) });
      if (!sameServer(before.baseUrl, profile.baseUrl)) await secrets.delete(profileId).catch(() => false);
      await restartIfActive(profileId);
      await views.announce();
      return views.profile(profile);
    },
    'profiles.remove': async ({ profileId }) => {
      backendFor(byId(profileId)).refuseChange('existence');
      const wasActive = store.get().activeProfileId === profileId;
      store.removeProfile(profileId);
      await secrets.delete(profileId).catch(() => false);
      if (wasActive) {
        store.set({ activeProfileId: THIS_COMPUTER_PROFILE_ID });
        await sessions.switch();
      }
      await views.announce();
      return views.state();
    },
    'profiles.use': async ({ profileId }) => {
      byId(profileId);
      await sessions.switch(profileId);
      await views.announce();
      return views.state();
    },
    'profiles.setKey': async ({ profileId, apiKey, keyPlace }) => {
      const profile = byId(profileId);
      backendFor(profile).refuseChange('key');
      await refuseRejectedKey(trimBaseUrl(profile.baseUrl), apiKey);
      await storeKey(secrets, { profile, apiKey, keyPlace, adding: false });
      await restartIfActive(profileId);
      await views.announce();
      return views.profile(profile);
    },
    'profiles.clearKey': async ({ profileId }) => {
      const profile = byId(profileId);
      backendFor(profile).refuseChange('key');
      await secrets.delete(profileId);
      await restartIfActive(profileId);
      await views.announce();
      return views.profile(profile);
    },
    'profiles.hasKey': async ({ profileId }) => (await views.profile(byId(profileId))).hasKey,
    'profiles.testConnection': async ({ profileId, baseUrl, apiKey }) => {
      if (profileId) return backendFor(byId(profileId)).testConnection({ ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) });
      if (!baseUrl) throw new ConfigError('Enter the server address to test.', { code: 'no-base-url' });
      return apiKey ? testConnectionTo(trimBaseUrl(baseUrl), apiKey) : untested('Enter an API key to test.');
    },
  };
}

function profileById(store: SettingsStore, id: string): Profile {
  const profile = store.get().profiles.find((p) => p.id === id);
  if (!profile) throw new ConfigError('That profile no longer exists.', { code: 'no-profile' });
  return profile;
}
