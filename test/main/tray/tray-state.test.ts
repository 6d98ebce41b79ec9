import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import type { ActivitySnapshot } from '../../../src/main/activity/activity';
import { trayMenuTemplate, type TrayActions } from '../../../src/main/tray/tray-menu';
import { MAX_TRAY_JOBS, trayState } from '../../../src/main/tray/tray-state';
import { job } from '../helpers/jobs';

vi.mock('electron', () => ({}));

function snapshot(overrides: Partial<ActivitySnapshot> = {}): ActivitySnapshot {
  return { activeJobs: [], uploads: 0, downloads: 0, connection: { state: 'ok' }, autoDownload: true, downloadDir: '/r', unseenFailures: 0, ...overrides };
}

describe('tray state from job states', () => {
  it('is idle with nothing going on: no progress, no badge', () => {
    expect(trayState(snapshot())).toMatchObject({ look: 'idle', tooltip: 'Renderdrop: idle', activeCount: 0, percent: null, progress: -1, badge: 0, jobs: [] });
  });

  it('is active with the count and overall frame progress of the active jobs', () => {
    const state = trayState(
      snapshot({
        activeJobs: [job({ id: 'a', fileName: 'a.blend', completedFrames: 30, totalFrames: 100 }), job({ id: 'b', fileName: 'b.blend', status: 'booting', completedFrames: 0, totalFrames: 100 }), job({ id: 'c', status: 'validating' })],
        uploads: 1,
      }),
    );
    expect(state).toMatchObject({ look: 'active', activeCount: 4, percent: 15, progress: 0.15, badge: 4, tooltip: 'Renderdrop: 4 active, 15 %' });
    expect(state.jobs).toEqual([
      { id: 'a', label: 'a.blend: rendering 30/100 (30 %)' },
      { id: 'b', label: 'b.blend: starting 0/100 (0 %)' },
      { id: 'c', label: 'c.blend: validating' },
    ]);
  });

  it('shows busy without a fraction while no job knows its frames (uploads, validation, downloads)', () => {
    expect(trayState(snapshot({ uploads: 2 }))).toMatchObject({ look: 'active', tooltip: 'Renderdrop: 2 active', percent: null, progress: 2, badge: 2 });
    expect(trayState(snapshot({ downloads: 1 }))).toMatchObject({ look: 'active', tooltip: 'Renderdrop: downloading 1 job', progress: 2, badge: 0 });
  });

  it('is an error when the server cannot be used or a render failed unseen, keeping the activity in the tooltip', () => {
    const down = trayState(snapshot({ connection: { state: 'unreachable', message: 'The server cannot be reached: ECONNREFUSED', retryInSeconds: 5, since: 'x' } }));
    expect(down).toMatchObject({ look: 'error', tooltip: 'Renderdrop: The server cannot be reached: ECONNREFUSED' });
    const failed = trayState(snapshot({ unseenFailures: 2, activeJobs: [job({ id: 'a', completedFrames: 1, totalFrames: 4 })] }));
    expect(failed).toMatchObject({ look: 'error', tooltip: 'Renderdrop: 1 active, 25 % · 2 renders failed.' });
    expect(trayState(snapshot({ connection: { state: 'rate-limited', message: 'slow', retryInSeconds: 1, since: 'x' } })).look).toBe('idle');
    expect(trayState(snapshot({ connection: { state: 'starting', message: 'starting' } })).look).toBe('idle');
  });

  it('lists a bounded number of jobs, keeps labels and the tooltip short', () => {
    const many = Array.from({ length: MAX_TRAY_JOBS + 3 }, (_, i) => job({ id: `j${i}`, fileName: `${'long-name-'.repeat(12)}${i}.blend` }));
    const state = trayState(snapshot({ activeJobs: many, connection: { state: 'key-rejected', message: 'x'.repeat(300) } }));
    expect(state.jobs).toHaveLength(MAX_TRAY_JOBS);
    expect(state.moreJobs).toBe(3);
    expect(state.jobs.every((j) => j.label.length <= 80)).toBe(true);
    expect(state.tooltip.length).toBeLessThanOrEqual(127);
  });
});

describe('tray menu', () => {
  function actions(): TrayActions & Record<string, ReturnType<typeof vi.fn>> {
    return { showWindow: vi.fn(), showJob: vi.fn(), openDownloadFolder: vi.fn(), setAutoDownload: vi.fn(), setKeepRunningInTray: vi.fn(), quit: vi.fn() };
  }
  const click = (item: MenuItemConstructorOptions, checked = false) => (item.click as (i: { checked: boolean }) => void)({ checked });
  const byLabel = (items: MenuItemConstructorOptions[], label: string | RegExp) => items.find((i) => (typeof label === 'string' ? i.label === label : label.test(i.label ?? '')))!;

  it('offers show window, active jobs with progress, download folder, pause downloads, keep in tray, quit', () => {
    const act = actions();
    const state = trayState(snapshot({ activeJobs: [job({ id: 'a', fileName: 'a.blend', completedFrames: 1, totalFrames: 2 })] }));
    const items = trayMenuTemplate(state, { autoDownload: true, keepRunningInTray: true }, act);
    expect(items.map((i) => i.label ?? `-${i.type}-`)).toEqual([
      'Show Renderdrop',
      '-separator-',
      'Active jobs (50 % overall)',
      'a.blend: rendering 1/2 (50 %)',
      '-separator-',
      'Open download folder',
      'Pause automatic downloads',
      'Keep running in the tray while working',
      '-separator-',
      'Quit Renderdrop',
    ]);
    click(byLabel(items, 'Show Renderdrop'));
    click(byLabel(items, /^a\.blend/));
    click(byLabel(items, 'Open download folder'));
    click(byLabel(items, 'Pause automatic downloads'));
    click(byLabel(items, 'Keep running in the tray while working'), false);
    click(byLabel(items, 'Quit Renderdrop'));
    expect(act.showWindow).toHaveBeenCalledOnce();
    expect(act.showJob).toHaveBeenCalledWith('a');
    expect(act.openDownloadFolder).toHaveBeenCalledOnce();
    expect(act.setAutoDownload).toHaveBeenCalledWith(false);
    expect(act.setKeepRunningInTray).toHaveBeenCalledWith(false);
    expect(act.quit).toHaveBeenCalledOnce();
    expect(byLabel(items, 'Keep running in the tray while working')).toMatchObject({ type: 'checkbox', checked: true });
  });

  it('offers to resume paused downloads and says when nothing is active', () => {
    const act = actions();
    const items = trayMenuTemplate(trayState(snapshot()), { autoDownload: false, keepRunningInTray: false }, act);
    expect(byLabel(items, 'No active jobs').enabled).toBe(false);
    click(byLabel(items, 'Resume automatic downloads'));
    expect(act.setAutoDownload).toHaveBeenCalledWith(true);
    const uploading = trayMenuTemplate(trayState(snapshot({ uploads: 2 })), { autoDownload: true, keepRunningInTray: true }, act);
    expect(byLabel(uploading, 'Uploading 2 files').enabled).toBe(false);
  });
});
