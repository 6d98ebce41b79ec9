import type { MenuItemConstructorOptions } from 'electron';
import type { TrayState } from './tray-state';

/** What the tray menu's items do. */
export interface TrayActions {
  showWindow(): void;
  showJob(jobId: string): void;
  openDownloadFolder(): void;
  setAutoDownload(on: boolean): void;
  setKeepRunningInTray(on: boolean): void;
  quit(): void;
}

/** The switches the menu shows. */
export interface TrayMenuSettings {
  autoDownload: boolean;
  keepRunningInTray: boolean;
}

/**
 * The tray menu: show the window, the active jobs with their progress (a click shows the job), open
 * the download folder, pause or resume automatic downloads, keep running in the tray, quit.
 */
export function trayMenuTemplate(state: TrayState, settings: TrayMenuSettings, actions: TrayActions): MenuItemConstructorOptions[] {
  const jobs: MenuItemConstructorOptions[] =
    state.jobs.length === 0
      ? [{ label: state.activeCount > 0 ? `Uploading ${state.activeCount === 1 ? '1 file' : `${state.activeCount} files`}` : 'No active jobs', enabled: false }]
      : [
          { label: `Active jobs${state.percent !== null ? ` (${state.percent} % overall)` : ''}`, enabled: false },
          ...state.jobs.map((job): MenuItemConstructorOptions => ({ label: job.label, click: () => actions.showJob(job.id) })),
          ...(state.moreJobs > 0 ? [{ label: `and ${state.moreJobs} more…`, click: () => actions.showWindow() }] : []),
        ];
  return [
    { label: 'Show Renderdrop', click: () => actions.showWindow() },
    { type: 'separator' },
    ...jobs,
    { type: 'separator' },
    { label: 'Open download folder', click: () => actions.openDownloadFolder() },
    settings.autoDownload
      ? { label: 'Pause automatic downloads', click: () => actions.setAutoDownload(false) }
      : { label: 'Resume automatic downloads', click: () => actions.setAutoDownload(true) },
    {
      label: 'Keep running in the tray while working',
      type: 'checkbox',
      checked: settings.keepRunningInTray,
      click: (item) => actions.setKeepRunningInTray(item.checked),
    },
    { type: 'separator' },
    { label: 'Quit Renderdrop', click: () => actions.quit() },
  ];
}
