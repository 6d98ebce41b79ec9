import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { app, dialog, ipcMain, protocol, session, shell, type BrowserWindow } from 'electron';
import { serializeError } from '../core/errors';
import type { SecretStore } from '../core/secrets';
import { createHost, type HostOptions } from '../host/host';
import { EVENT_CHANNEL, type AppEvent, type SubmitFileResult } from '../shared/contract';
import { Activity, isWorkActive } from './activity/activity';
import { appPaths } from './app-paths';
import { forwardEvents } from './ipc/forward-events';
import { registerContract } from './ipc/register-contract';
import { isTrustedSender } from './ipc/sender-check';
import { openSecretStore } from './keychain/open-secret-store';
import type { FileHandOver } from './launch/file-hand-over';
import { NativeNotifier } from './notifications/native-notifications';
import { jobClickAction } from './notifications/notification-policy';
import { DesktopSettings } from './settings/desktop-settings';
import { DesktopTray, showTaskbarProgress } from './tray/desktop-tray';
import { trayState } from './tray/tray-state';
import { APP_ENTRY_URL, APP_ORIGIN } from './window/app-origin';
import { serveAppFiles } from './window/app-protocol';
import { closeAction, quitQuestion } from './window/close-policy';
import { contentSecurityPolicy } from '../shared/security';
import { createMainWindow } from './window/main-window';
import { denyPermissions } from './window/web-guards';

/** How the shell starts. */
export interface DesktopShellOptions {
  /** Scene files opened with the app; submitted once the host runs. */
  opened: FileHandOver;
  env?: NodeJS.ProcessEnv;
  /** The OS keychain to try first (default: @napi-rs/keyring, as the CLI). */
  keychain?: SecretStore;
  /** Host settings a test fixes instead of detecting (Blender, the local node). */
  host?: Pick<HostOptions, 'blender' | 'localNode' | 'home'>;
}

/** The running desktop app. */
export interface DesktopShell {
  showWindow(): void;
}

const TRAY_REFRESH_MS = 300;

type Refused = Extract<SubmitFileResult, { ok: false }>;

/**
 * Starts the desktop app once Electron is ready: settings (electron-store on the CLI's file), the API
 * key store, the host with its local render node, the contract on IPC, the window, tray, taskbar
 * progress and native notifications, and the close and quit rules. Everything with logic lives in
 * the modules it wires together.
 */
export async function startDesktopShell(options: DesktopShellOptions): Promise<DesktopShell> {
  const env = options.env ?? process.env;
  const paths = appPaths({ mainUrl: import.meta.url, packaged: app.isPackaged, appPath: app.getAppPath(), resourcesPath: process.resourcesPath });
  const devServer = app.isPackaged ? undefined : env.ELECTRON_RENDERER_URL;
  const appOrigin = devServer ? new URL(devServer).origin : APP_ORIGIN;
  const csp = contentSecurityPolicy(devServer ? { devServer } : {});
  const openExternal = (url: string) => shell.openExternal(url);
  const openPath = async (path: string) => {
    const error = await shell.openPath(path);
    if (error) throw new Error(`Could not open ${path} (${error}).`);
  };

  const settings = DesktopSettings.open(env);
  const keys = await openSecretStore({ configDir: settings.shared.dir, ...(options.keychain ? { keychain: options.keychain } : {}) });
  const host = await createHost({
    ...options.host,
    env,
    secrets: keys.secrets,
    keyStore: keys.keyStore,
    ...(keys.note ? { keyStoreNote: keys.note } : {}),
    shell: 'desktop',
    settings: settings.shared,
    openPath,
  });

  if (devServer) {
    session.defaultSession.webRequest.onHeadersReceived({ urls: [`${appOrigin}/*`] }, (details, callback) =>
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } }),
    );
  } else {
    serveAppFiles(protocol, paths.renderer, csp);
  }
  denyPermissions(session.defaultSession);

  let window: BrowserWindow | null = null;
  const liveWindow = () => (window && !window.isDestroyed() ? window : null);
  const stopIpc = registerContract(ipcMain, host.handlers, {
    isTrustedSender: (event) => isTrustedSender(event, liveWindow()?.webContents.id ?? null, appOrigin),
    toError: serializeError,
  });

  const showWindow = () => {
    const current = liveWindow();
    if (!current) return;
    if (current.isMinimized()) current.restore();
    current.show();
    current.focus();
  };
  const showJob = (jobId: string) => {
    showWindow();
    const event: AppEvent = { name: 'job.show', payload: { jobId } };
    liveWindow()?.webContents.send(EVENT_CHANNEL, event);
  };

  const activity = new Activity();
  const notifier = new NativeNotifier({
    isFocused: () => liveWindow()?.isFocused() ?? false,
    job: (jobId) => activity.job(jobId),
    icon: join(paths.icons, '256x256.png'),
    onClick: (target) => {
      if (target.kind === 'window') return showWindow();
      const action = jobClickAction(target.jobId, activity.job(target.jobId));
      if (action.kind === 'folder') void openPath(action.dir).catch(() => showJob(target.jobId));
      else showJob(action.jobId);
    },
  });

  const tray = new DesktopTray(paths.icons, {
    showWindow,
    showJob,
    openDownloadFolder: () => {
      void host.handlers['settings.get']({}).then(async ({ downloadDir }) => {
        await mkdir(downloadDir, { recursive: true });
        await openPath(downloadDir);
      });
    },
    setAutoDownload: (on) => void host.handlers['settings.update']({ autoDownload: on }).catch(() => undefined),
    setKeepRunningInTray: (on) => {
      settings.setPreferences({ keepRunningInTray: on });
      refreshSoon();
    },
    quit: () => app.quit(),
  });

  let refreshTimer: NodeJS.Timeout | null = null;
  const refresh = () => {
    refreshTimer = null;
    const snapshot = activity.snapshot();
    const state = trayState(snapshot);
    tray.update(state, { autoDownload: snapshot.autoDownload, keepRunningInTray: settings.preferences.keepRunningInTray });
    showTaskbarProgress(liveWindow(), app, state);
  };
  const refreshSoon = () => {
    refreshTimer ??= setTimeout(refresh, TRAY_REFRESH_MS);
  };
  const seedActiveJobs = () =>
    void host.handlers['jobs.list']({ filter: 'active' })
      .then((page) => activity.seed(page.jobs))
      .catch(() => undefined)
      .finally(refreshSoon);

  const stopWatching = host.subscribe((event) => {
    activity.apply(event);
    notifier.handle(event);
    if (event.name === 'jobs.reset') seedActiveJobs();
    if (event.name !== 'transfer.progress') refreshSoon();
  });
  activity.apply({ name: 'app.changed', payload: await host.handlers['app.getState']({}) });
  seedActiveJobs();

  window = createMainWindow({ preload: paths.preload, appOrigin, icon: join(paths.icons, '512x512.png'), openExternal });
  const stopForwarding = forwardEvents(host.subscribe, () => liveWindow()?.webContents ?? null);
  window.on('focus', () => {
    activity.markFailuresSeen();
    refreshSoon();
  });

  let quitting = false;
  let quitConfirmed = false;
  window.on('close', (event) => {
    const action = closeAction({
      quitting,
      keepRunningInTray: settings.preferences.keepRunningInTray,
      workActive: isWorkActive(activity.snapshot()),
      platform: process.platform,
    });
    if (action === 'hide') {
      event.preventDefault();
      liveWindow()?.hide();
    } else if (!quitting) {
      event.preventDefault();
      app.quit();
    }
  });
  app.on('activate', showWindow);
  app.on('before-quit', (event) => {
    const question = quitConfirmed ? null : quitQuestion(activity.snapshot().uploads);
    if (!question) {
      quitting = true;
      return;
    }
    event.preventDefault();
    const parent = liveWindow();
    const box = { type: 'question' as const, message: question.message, detail: question.detail, buttons: question.buttons, defaultId: 0, cancelId: 0 };
    void (parent ? dialog.showMessageBox(parent, box) : dialog.showMessageBox(box)).then(({ response }) => {
      if (response !== 1) return;
      quitConfirmed = true;
      app.quit();
    });
  });
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    if (refreshTimer) clearTimeout(refreshTimer);
    notifier.dispose();
    stopForwarding();
    stopWatching();
    stopIpc();
    tray.destroy();
    void host.close().finally(() => {
      closed = true;
      app.exit(0);
    });
  });

  const submitOpened = async (files: string[]) => {
    showWindow();
    let results: SubmitFileResult[];
    try {
      results = await host.handlers['submissions.submit']({ files: files.map((path) => ({ path })) });
    } catch (error) {
      results = files.map((path) => ({ ok: false, name: basename(path), error: serializeError(error) }));
    }
    const refused = results.filter((r): r is Refused => !r.ok);
    if (refused.length === 0) return;
    const box = {
      type: 'warning' as const,
      message: refused.length === 1 ? `${refused[0]!.name} was not submitted.` : `${refused.length} files were not submitted.`,
      detail: refused.map((r) => `${r.name}: ${r.error.message}`).join('\n'),
    };
    const parent = liveWindow();
    await (parent ? dialog.showMessageBox(parent, box) : dialog.showMessageBox(box));
  };
  options.opened.receiveWith((files) => void submitOpened(files));

  if (env.RENDERDROP_TEST_HOOKS === '1') {
    Object.assign(globalThis, { __renderdropTest: { tray: () => ({ look: tray.look, tooltip: tray.tooltip }) } });
  }
  void window.loadURL(devServer ?? APP_ENTRY_URL).catch((error: Error) => dialog.showErrorBox('Renderdrop could not open its window', error.message));
  refreshSoon();
  return { showWindow };
}
