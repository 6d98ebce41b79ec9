import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemorySecretStore } from '../../src/core/secrets/memory-secret-store';
import { readHandoverFile } from '../../src/host/handover';
import { FileHandOver } from '../../src/main/launch/file-hand-over';
import { APP_ENTRY_URL } from '../../src/main/window/app-origin';
import { CALL_NAMES, callChannel, EVENT_CHANNEL } from '../../src/shared/contract';
import { tempDir } from '../helpers/scene-files';
import { fakeElectron as fake } from './helpers/fake-electron';

vi.mock('electron', async () => (await import('./helpers/fake-electron')).electronModule());

const { startDesktopShell } = await import('../../src/main/desktop-shell');

describe('the desktop shell wired together (electron mocked, real host and local node)', () => {
  let dir: string;
  const opened = new FileHandOver();

  beforeAll(async () => {
    dir = await tempDir('rd-shell-');
    const notAScene = join(dir, 'notes.blend');
    await writeFile(notAScene, 'just text');
    opened.add([notAScene]);
    await startDesktopShell({
      opened,
      env: { RENDERDROP_CONFIG_DIR: dir, RENDERDROP_API_KEY: '', RENDERDROP_BASE_URL: '' },
      keychain: new MemorySecretStore(),
      host: { blender: null, home: join(dir, 'home') },
    });
  });

  afterAll(async () => {
    const quit = { preventDefault: vi.fn() };
    fake.app.emit('will-quit', quit);
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(0), { timeout: 10_000 });
    expect(await readHandoverFile(dir)).toBeNull();
  });

  it('listens for the Blender add-on: handover.json in the config folder, this user only', async () => {
    const info = await readHandoverFile(dir);
    expect(info?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/handover$/);
    expect((await stat(join(dir, 'handover.json'))).mode & 0o777).toBe(0o600);
  });

  const window = () => fake.windows[0]!;
  const trusted = () => ({ sender: { id: window().webContents.id }, senderFrame: { url: APP_ENTRY_URL, parent: null } });

  it('opens one window on the app scheme, served with the CSP', () => {
    expect(fake.windows).toHaveLength(1);
    expect(fake.record.loaded).toEqual([APP_ENTRY_URL]);
    expect(fake.record.schemes).toEqual(['app']);
    expect(fake.record.permissionsDenied).toBe(true);
  });

  it('answers the contract on IPC for its own window only', async () => {
    expect([...fake.ipcHandlers.keys()].sort()).toEqual(CALL_NAMES.map((n) => callChannel(n)).sort());
    const state = (await fake.ipcHandlers.get(callChannel('app.getState'))!(trusted(), {})) as { ok: boolean; value: { shell: string; keyStore: string; configDir: string } };
    expect(state).toMatchObject({ ok: true, value: { shell: 'desktop', keyStore: 'keychain', configDir: dir } });
    const foreign = await fake.ipcHandlers.get(callChannel('app.getState'))!({ ...trusted(), sender: { id: 99 } }, {});
    expect(foreign).toMatchObject({ ok: false, error: { code: 'forbidden-sender' } });
  });

  it('forwards host events to the window', async () => {
    await fake.ipcHandlers.get(callChannel('settings.update'))!(trusted(), { notifications: false });
    expect(window().webContents.send).toHaveBeenCalledWith(EVENT_CHANNEL, expect.objectContaining({ name: 'app.changed' }));
  });

  it('shows the tray (an error: this computer has no Blender here) and no taskbar progress', async () => {
    await vi.waitFor(() => expect(fake.trays[0]?.tooltip).toMatch(/^Renderdrop: Blender was not found on this computer/));
    expect(fake.trays).toHaveLength(1);
    expect(fake.trays[0]!.menus).toBeGreaterThan(0);
    await vi.waitFor(() => expect(window().setProgressBar).toHaveBeenLastCalledWith(-1, expect.anything()));
  });

  it('submits files opened with the app and says which were refused, and why', async () => {
    expect(opened.pending).toEqual([]);
    await vi.waitFor(() => expect(fake.record.dialogs).toHaveLength(1));
    const box = fake.record.dialogs[0]!;
    expect(box.message).toBe('notes.blend was not submitted.');
    expect(box.detail).toMatch(/^notes\.blend: .*Blender/);
  });

  it('quits when the window is closed with nothing going on, without asking', () => {
    const close = { preventDefault: vi.fn() };
    window().emit('close', close);
    expect(close.preventDefault).toHaveBeenCalled();
    expect(fake.app.quit).toHaveBeenCalledOnce();
    const beforeQuit = { preventDefault: vi.fn() };
    fake.app.emit('before-quit', beforeQuit);
    expect(beforeQuit.preventDefault).not.toHaveBeenCalled();
    const closing = { preventDefault: vi.fn() };
    window().emit('close', closing);
    expect(closing.preventDefault).not.toHaveBeenCalled();
  });
});

