import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfigDir } from '../../../src/core/settings/json-settings-file';
import { SettingsStore, configDirFromEnv, effectiveDownloadDir } from '../../../src/core/settings/settings-store';
import { tempDir } from '../../helpers/scene-files';

describe('SettingsStore', () => {
  it('lives in RENDERDROP_CONFIG_DIR as config.json with defaults', async () => {
    const dir = await tempDir();
    const store = new SettingsStore({ env: { RENDERDROP_CONFIG_DIR: dir } });
    expect(store.path).toBe(join(dir, 'config.json'));
    expect(store.dir).toBe(dir);
    expect(store.get()).toEqual({ profiles: [], activeProfileId: null, downloadDir: null, autoDownload: true, notifications: true });
  });

  it('adds profiles, makes the first active, switches by name and removes', async () => {
    const store = new SettingsStore({ configDir: await tempDir() });
    const local = store.addProfile({ name: 'This computer', baseUrl: 'http://127.0.0.1:7878', kind: 'local' });
    const cloud = store.addProfile({ id: 'farm', name: 'Farm', baseUrl: 'https://farm.example.com', kind: 'cloud' });
    expect(store.activeProfile()?.id).toBe(local.id);
    expect(store.useProfile('farm').id).toBe(cloud.id);
    expect(store.activeProfile()?.name).toBe('Farm');
    expect(() => store.addProfile({ name: 'farm', baseUrl: 'https://x.example', kind: 'cloud' })).toThrow(/already exists/);
    expect(() => store.useProfile('nope')).toThrow(/No profile "nope"/);
    store.updateProfile('farm', { baseUrl: 'https://farm2.example.com' });
    store.removeProfile('farm');
    expect(store.get().activeProfileId).toBe(local.id);
  });

  it('writes plain JSON that a second store (electron-store style) reads', async () => {
    const dir = await tempDir();
    new SettingsStore({ configDir: dir }).set({ downloadDir: '/renders', autoDownload: false });
    const raw = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    expect(raw).toMatchObject({ downloadDir: '/renders', autoDownload: false });
    expect(new SettingsStore({ configDir: dir }).get().downloadDir).toBe('/renders');
  });

  it('falls back to defaults for broken fields and drops broken profiles', async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, 'config.json'),
      JSON.stringify({ autoDownload: 'yes', profiles: [{ id: 'a', name: 'A', baseUrl: 'http://a', kind: 'local' }, { id: 'b' }] }),
    );
    const settings = new SettingsStore({ configDir: dir }).get();
    expect(settings.autoDownload).toBe(true);
    expect(settings.profiles.map((p) => p.id)).toEqual(['a']);
  });

  it('reads the folder from the environment and the download default from home', () => {
    expect(configDirFromEnv({ RENDERDROP_CONFIG_DIR: ' /x ' })).toBe('/x');
    expect(configDirFromEnv({})).toBeUndefined();
    expect(effectiveDownloadDir({ downloadDir: null }, '/home/ana')).toBe('/home/ana/Renderdrop');
    expect(effectiveDownloadDir({ downloadDir: '/r' }, '/home/ana')).toBe('/r');
  });

  it('writes the file private to this user, creating its folder', async () => {
    const dir = join(await tempDir(), 'deeper', 'renderdrop');
    new SettingsStore({ configDir: dir }).set({ autoDownload: false });
    if (process.platform !== 'win32') expect((await stat(join(dir, 'config.json'))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')).autoDownload).toBe(false);
  });

  it('keeps keys it does not know (the desktop app\'s own) when it writes', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'config.json'), JSON.stringify({ windowBounds: { width: 900 }, autoDownload: true }));
    new SettingsStore({ configDir: dir }).set({ notifications: false });
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toMatchObject({ windowBounds: { width: 900 }, notifications: false });
  });

  it('refuses a damaged file with an error naming it, and leaves it as it was', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'config.json'), '{"profiles": [');
    const store = new SettingsStore({ configDir: dir });
    expect(() => store.get()).toThrow(/settings file .*config\.json is damaged/);
    expect(() => store.set({ autoDownload: false })).toThrow(/damaged/);
    expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe('{"profiles": [');
  });

  it('finds the OS settings folder where electron-store does', () => {
    expect(defaultConfigDir('renderdrop', {}, 'linux', '/home/ana')).toBe('/home/ana/.config/renderdrop');
    expect(defaultConfigDir('renderdrop', { XDG_CONFIG_HOME: '/x/cfg' }, 'linux', '/home/ana')).toBe('/x/cfg/renderdrop');
    expect(defaultConfigDir('renderdrop', {}, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Preferences/renderdrop');
    expect(defaultConfigDir('renderdrop', { APPDATA: 'C:/Users/ana/AppData/Roaming' }, 'win32', 'C:/Users/ana').replaceAll('\\', '/')).toBe('C:/Users/ana/AppData/Roaming/renderdrop/Config');
  });
});
