import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { ActivitySnapshot } from '../../../src/main/activity/activity';
import { trayState } from '../../../src/main/tray/tray-state';
import { job } from '../helpers/jobs';

const trays: FakeTray[] = [];
class FakeTray extends EventEmitter {
  image: unknown;
  tooltip = '';
  menus: unknown[] = [];
  setImage = vi.fn((image: unknown) => (this.image = image));
  setToolTip = vi.fn((text: string) => (this.tooltip = text));
  setContextMenu = vi.fn((menu: unknown) => this.menus.push(menu));
  destroy = vi.fn();
  constructor(image: unknown) {
    super();
    this.image = image;
    trays.push(this);
  }
}

vi.mock('electron', () => ({
  Tray: FakeTray,
  Menu: { buildFromTemplate: (template: unknown[]) => ({ template }) },
  nativeImage: { createFromPath: (path: string) => ({ path }) },
}));

const { DesktopTray, showTaskbarProgress, trayIconPath } = await import('../../../src/main/tray/desktop-tray');

const idle: ActivitySnapshot = { activeJobs: [], uploads: 0, downloads: 0, connection: { state: 'ok' }, autoDownload: true, downloadDir: '/r', unseenFailures: 0 };
const actions = { showWindow: vi.fn(), showJob: vi.fn(), openDownloadFolder: vi.fn(), setAutoDownload: vi.fn(), setKeepRunningInTray: vi.fn(), quit: vi.fn() };

describe('the tray (electron mocked)', () => {
  it('starts idle and switches icon, tooltip and menu with the state', () => {
    const tray = new DesktopTray('/icons', actions);
    const fake = trays.at(-1)!;
    expect(fake.image).toEqual({ path: trayIconPath('/icons', 'idle') });
    tray.update(trayState(idle), { autoDownload: true, keepRunningInTray: true });
    expect(fake.setImage).not.toHaveBeenCalled();
    expect(fake.menus).toHaveLength(1);
    const busy = trayState({ ...idle, activeJobs: [job({ id: 'a', completedFrames: 1, totalFrames: 4 })] });
    tray.update(busy, { autoDownload: true, keepRunningInTray: true });
    expect(fake.image).toEqual({ path: '/icons/tray-active.png' });
    expect(fake.tooltip).toBe('Renderdrop: 1 active, 25 %');
    expect(tray.look).toBe('active');
    expect(tray.tooltip).toBe('Renderdrop: 1 active, 25 %');
    tray.update(busy, { autoDownload: true, keepRunningInTray: true });
    expect(fake.menus).toHaveLength(2);
    tray.update(trayState({ ...idle, unseenFailures: 1 }), { autoDownload: false, keepRunningInTray: true });
    expect(fake.image).toEqual({ path: '/icons/tray-error.png' });
    expect(fake.menus).toHaveLength(3);
    fake.emit('click');
    expect(actions.showWindow).toHaveBeenCalledOnce();
    tray.destroy();
    expect(fake.destroy).toHaveBeenCalled();
  });

  it('puts overall progress on the taskbar and the active count on the badge', () => {
    const window = { setProgressBar: vi.fn(), isDestroyed: () => false };
    const app = { setBadgeCount: vi.fn(() => true) };
    showTaskbarProgress(window, app, trayState({ ...idle, activeJobs: [job({ id: 'a', completedFrames: 1, totalFrames: 2 })], uploads: 1 }));
    expect(window.setProgressBar).toHaveBeenLastCalledWith(0.5, { mode: 'normal' });
    expect(app.setBadgeCount).toHaveBeenLastCalledWith(2);
    showTaskbarProgress(window, app, trayState({ ...idle, uploads: 1 }));
    expect(window.setProgressBar).toHaveBeenLastCalledWith(2, { mode: 'indeterminate' });
    showTaskbarProgress(window, app, trayState(idle));
    expect(window.setProgressBar).toHaveBeenLastCalledWith(-1, { mode: 'normal' });
    expect(app.setBadgeCount).toHaveBeenLastCalledWith(0);
    showTaskbarProgress(null, app, trayState(idle));
    expect(window.setProgressBar).toHaveBeenCalledTimes(3);
  });
});
