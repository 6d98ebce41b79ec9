import { mkdir } from 'node:fs/promises';
import { app } from 'electron';
import type { ContractHandlers } from '../../shared/contract';
import type { Activity } from '../activity';
import type { DesktopSettings } from '../settings';
import type { ShellWindow } from '../window';
import { DesktopTray, showTaskbarProgress } from './desktop-tray';
import { trayState } from './tray-state';

const TRAY_REFRESH_MS = 300;

/** What the tray and the taskbar need. */
export interface ActivityIndicatorDeps {
  iconsDir: string;
  handlers: Pick<ContractHandlers, 'settings.get' | 'settings.update'>;
  activity: Activity;
  settings: DesktopSettings;
  window: ShellWindow;
  openPath: (path: string) => Promise<void>;
}

/** The tray and the taskbar progress, redrawn from the activity at most every 300 ms. */
export interface ActivityIndicators {
  readonly tray: DesktopTray;
  /** Redraws soon (once for any number of calls within 300 ms). */
  refreshSoon(): void;
  /** Removes the tray and stops any pending redraw. */
  dispose(): void;
}

/** Shows the tray (with its menu's actions) and the taskbar progress of the app's activity. */
export function startActivityIndicators(deps: ActivityIndicatorDeps): ActivityIndicators {
  const { activity, settings, window, handlers, openPath } = deps;
  let refreshTimer: NodeJS.Timeout | null = null;
  const tray = new DesktopTray(deps.iconsDir, {
    showWindow: () => window.show(),
    showJob: (jobId) => window.showJob(jobId),
    openDownloadFolder: () => {
      void handlers['settings.get']({}).then(async ({ downloadDir }) => {
        await mkdir(downloadDir, { recursive: true });
        await openPath(downloadDir);
      });
    },
    setAutoDownload: (on) => void handlers['settings.update']({ autoDownload: on }).catch(() => undefined),
    setKeepRunningInTray: (on) => {
      settings.setPreferences({ keepRunningInTray: on });
      refreshSoon();
    },
    quit: () => app.quit(),
  });
  const refresh = () => {
    refreshTimer = null;
    const snapshot = activity.snapshot();
    const state = trayState(snapshot);
    tray.update(state, { autoDownload: snapshot.autoDownload, keepRunningInTray: settings.preferences.keepRunningInTray });
    showTaskbarProgress(window.live(), app, state);
  };
  const refreshSoon = () => {
    refreshTimer ??= setTimeout(refresh, TRAY_REFRESH_MS);
  };
  return {
    tray,
    refreshSoon,
    dispose: () => {
      if (refreshTimer) clearTimeout(refreshTimer);
      tray.destroy();
    },
  };
}
