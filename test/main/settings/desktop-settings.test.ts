import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SettingsStore } from '../../../src/core/settings/settings-store';
import { tempDir } from '../../helpers/scene-files';

const ipcOn = vi.fn();
vi.mock('electron', () => ({
  default: { app: { getPath: () => '/nonexistent/userData', getVersion: () => '0.1.0' }, ipcMain: { on: ipcOn }, shell: {} },
}));

const { DesktopSettings, DESKTOP_SETTINGS_KEY } = await import('../../../src/main/settings/desktop-settings');

describe('desktop settings (electron-store, electron mocked)', () => {
  it('opens the very config.json the CLI reads with conf, honouring RENDERDROP_CONFIG_DIR', async () => {
    const dir = await tempDir('rd-settings-');
    const env = { RENDERDROP_CONFIG_DIR: dir };
    const desktop = DesktopSettings.open(env);
    expect(desktop.path).toBe(join(dir, 'config.json'));
    expect(desktop.path).toBe(new SettingsStore({ env }).path);
    expect(desktop.shared.dir).toBe(dir);
  });

  it('what the app writes the CLI reads, and the other way round', async () => {
    const dir = await tempDir('rd-settings-');
    const desktop = DesktopSettings.open({ RENDERDROP_CONFIG_DIR: dir });
    const cli = new SettingsStore({ configDir: dir });
    const farm = desktop.shared.addProfile({ name: 'Farm', baseUrl: 'https://farm.example.com', kind: 'cloud' });
    expect(cli.get().profiles).toEqual([farm]);
    cli.set({ autoDownload: false, downloadDir: '/renders' });
    expect(desktop.shared.get()).toMatchObject({ autoDownload: false, downloadDir: '/renders', profiles: [farm] });
  });

  it('keeps the desktop preferences under their own key, which CLI writes leave alone', async () => {
    const dir = await tempDir('rd-settings-');
    const desktop = DesktopSettings.open({ RENDERDROP_CONFIG_DIR: dir });
    expect(desktop.preferences).toEqual({ keepRunningInTray: true });
    desktop.setPreferences({ keepRunningInTray: false });
    new SettingsStore({ configDir: dir }).set({ notifications: false });
    const raw = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    expect(raw[DESKTOP_SETTINGS_KEY]).toEqual({ keepRunningInTray: false });
    expect(raw.notifications).toBe(false);
    expect(DesktopSettings.open({ RENDERDROP_CONFIG_DIR: dir }).preferences).toEqual({ keepRunningInTray: false });
  });

  it('reads damaged desktop preferences as the defaults', async () => {
    const dir = await tempDir('rd-settings-');
    await writeFile(join(dir, 'config.json'), JSON.stringify({ desktop: { keepRunningInTray: 'sometimes' } }));
    expect(DesktopSettings.open({ RENDERDROP_CONFIG_DIR: dir }).preferences).toEqual({ keepRunningInTray: true });
    await writeFile(join(dir, 'config.json'), JSON.stringify({ desktop: 3 }));
    expect(DesktopSettings.open({ RENDERDROP_CONFIG_DIR: dir }).preferences).toEqual({ keepRunningInTray: true });
  });
});
