import { describe, expect, it } from 'vitest';
import { requireApiKey, resolveConnection } from '../../../src/core/settings/resolve-connection';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { DEFAULT_SETTINGS, THIS_COMPUTER_PROFILE_ID, type Settings } from '../../../src/shared/settings/settings';

const settings: Settings = {
  ...DEFAULT_SETTINGS,
  profiles: [{ id: 'farm', name: 'Farm', baseUrl: 'https://farm.example.com/', kind: 'cloud' }],
  activeProfileId: 'farm',
};

describe('resolveConnection', () => {
  it('gives "This computer" the running app\'s node and its key for local clients, else 8787 with its own stored key, never the app\'s key elsewhere', async () => {
    const local: Settings = {
      ...DEFAULT_SETTINGS,
      profiles: [
        { id: THIS_COMPUTER_PROFILE_ID, name: 'This computer', baseUrl: 'http://127.0.0.1:40123', kind: 'local' },
        { id: 'farm', name: 'Farm', baseUrl: 'https://farm.example.com', kind: 'cloud' },
      ],
      activeProfileId: THIS_COMPUTER_PROFILE_ID,
    };
    const secrets = new MemorySecretStore();
    const running = { client: { url: 'http://127.0.0.1:40999', apiKey: 'RJ-app-clients' }, defaultUrl: 'http://127.0.0.1:8787' };
    const stopped = { client: null, defaultUrl: 'http://127.0.0.1:8787' };
    expect(await resolveConnection(local, secrets, {}, { localNode: running })).toEqual({
      baseUrl: 'http://127.0.0.1:40999',
      apiKey: 'RJ-app-clients',
      profileId: THIS_COMPUTER_PROFILE_ID,
      source: 'app',
      baseUrlSource: 'app',
    });
    expect(await resolveConnection(local, secrets, {}, { localNode: stopped })).toMatchObject({ baseUrl: 'http://127.0.0.1:8787', apiKey: null, source: 'none', profileId: THIS_COMPUTER_PROFILE_ID });
    await secrets.set(THIS_COMPUTER_PROFILE_ID, 'RJ-logged-in');
    expect(await resolveConnection(local, secrets, {}, { localNode: stopped })).toMatchObject({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'RJ-logged-in' });
    expect(await resolveConnection(local, secrets, { RENDERDROP_BASE_URL: 'http://127.0.0.1:9000' }, { localNode: running })).toMatchObject({ baseUrl: 'http://127.0.0.1:9000', apiKey: null });
    const farm = await resolveConnection({ ...local, activeProfileId: 'farm' }, secrets, {}, { localNode: running });
    expect(farm).toMatchObject({ baseUrl: 'https://farm.example.com', apiKey: null, source: 'none' });
  });

  it('uses the active profile and its keychain key', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set('farm', 'RJ-stored');
    expect(await resolveConnection(settings, secrets, {})).toEqual({ baseUrl: 'https://farm.example.com', apiKey: 'RJ-stored', profileId: 'farm', source: 'keychain', baseUrlSource: 'profile' });
  });

  it('lets RENDERDROP_API_KEY override the stored key', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set('farm', 'RJ-stored');
    expect(await resolveConnection(settings, secrets, { RENDERDROP_API_KEY: 'RJ-env' })).toMatchObject({ apiKey: 'RJ-env', source: 'env' });
  });

  it('never sends a profile key to another server named by RENDERDROP_BASE_URL', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set('farm', 'RJ-stored');
    const connection = await resolveConnection(settings, secrets, { RENDERDROP_BASE_URL: 'http://elsewhere:1' });
    expect(connection).toMatchObject({ baseUrl: 'http://elsewhere:1', apiKey: null, source: 'none', profileId: null, baseUrlSource: 'env' });
    expect(() => requireApiKey(connection)).toThrow(/renderdrop login/);
  });

  it('works from the environment alone', async () => {
    const connection = await resolveConnection(DEFAULT_SETTINGS, new MemorySecretStore(), { RENDERDROP_BASE_URL: 'http://ci:7878', RENDERDROP_API_KEY: 'RJ-ci' });
    expect(connection).toMatchObject({ baseUrl: 'http://ci:7878', apiKey: 'RJ-ci', source: 'env' });
    expect(requireApiKey(connection)).toBe('RJ-ci');
  });

  it('explains what to do when nothing is configured', async () => {
    await expect(resolveConnection(DEFAULT_SETTINGS, new MemorySecretStore(), {})).rejects.toMatchObject({ kind: 'config', code: 'no-profile' });
  });
});
