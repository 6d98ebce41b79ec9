import { join } from 'node:path';
import { app, dialog, ipcMain, shell } from 'electron';
import { serializeError } from '../core/errors';
import type { SecretStore } from '../core/secrets';
import { createHost, type AppHost, type HostOptions } from '../host/host';
import { Activity } from './activity/activity';
import { followHost } from './activity/follow-host';
import { appPaths } from './app-paths';
import { forwardEvents } from './ipc/forward-events';
import { registerContract } from './ipc/register-contract';
import { isTrustedSender } from './ipc/sender-check';
import { openKeyFallback } from './keychain/key-fallback';
import { openSecretStore } from './keychain/open-secret-store';
import { listenForBlender } from './launch/blender-hand-over';
import { ownCliCommand } from './launch/own-cli';
import type { FileHandOver } from './launch/file-hand-over';
import { submitOpenedFiles } from './launch/submit-opened';
import { applyCloseAndQuitRules } from './lifecycle/close-and-quit';
import { desktopNotifier } from './notifications/desktop-notifier';
import { DesktopSettings } from './settings/desktop-settings';
import { startActivityIndicators } from './tray/activity-indicators';
import { APP_ENTRY_URL, APP_ORIGIN } from './window/app-origin';
import { createMainWindow } from './window/main-window';
import { serveRenderer } from './window/serve-renderer';
import { ShellWindow } from './window/shell-window';

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
  const { host, settings } = await openHost(options, env);
  serveRenderer({ devServer, appOrigin, rendererDir: paths.renderer });

  const window = new ShellWindow();
  const stopIpc = registerContract(ipcMain, host.handlers, {
    isTrustedSender: (event) => isTrustedSender(event, window.live()?.webContents.id ?? null, appOrigin),
    toError: serializeError,
  });
  const activity = new Activity();
  const notifier = desktopNotifier({ activity, window, icon: join(paths.icons, '256x256.png'), openPath });
  const indicators = startActivityIndicators({ iconsDir: paths.icons, handlers: host.handlers, activity, settings, window, openPath });
  const stopWatching = await followHost({ host, activity, notify: (event) => notifier.handle(event), changed: indicators.refreshSoon });

  const mainWindow = createMainWindow({ preload: paths.preload, appOrigin, icon: join(paths.icons, '512x512.png'), openExternal: (url) => shell.openExternal(url) });
  window.attach(mainWindow);
  const stopForwarding = forwardEvents(host.subscribe, () => window.live()?.webContents ?? null);
  const blender = await listenForBlender(host.configDir, { handlers: host.handlers, showWindow: () => window.show() });
  mainWindow.on('focus', () => {
    activity.markFailuresSeen();
    indicators.refreshSoon();
  });
  applyCloseAndQuitRules({
    mainWindow,
    window,
    activity,
    settings,
    shutdown: () => {
      notifier.dispose();
      stopForwarding();
      stopWatching();
      stopIpc();
      indicators.dispose();
      return Promise.all([blender?.close(), host.close()]).then(() => undefined);
    },
  });
  options.opened.receiveWith((files) => void submitOpenedFiles(files, { submit: host.handlers['submissions.submit'], window }));

  if (env.RENDERDROP_TEST_HOOKS === '1') {
    const { tray } = indicators;
    Object.assign(globalThis, { __renderdropTest: { tray: () => ({ look: tray.look, tooltip: tray.tooltip }) } });
  }
  void mainWindow.loadURL(devServer ?? APP_ENTRY_URL).catch((error: Error) => dialog.showErrorBox('Renderdrop could not open its window', error.message));
  indicators.refreshSoon();
  return { showWindow: () => window.show() };
}

/** The desktop settings, the API key store (keychain first) and the host on them. */
async function openHost(options: DesktopShellOptions, env: NodeJS.ProcessEnv): Promise<{ host: AppHost; settings: DesktopSettings }> {
  const settings = DesktopSettings.open(env);
  const keys = await openSecretStore({ configDir: settings.shared.dir, ...(options.keychain ? { keychain: options.keychain } : {}) });
  const keyFallback = keys.keyStore === 'keychain' ? await openKeyFallback(settings.shared.dir) : null;
  const host = await createHost({
    ...options.host,
    env,
    secrets: keys.secrets,
    keyStore: keys.keyStore,
    ...(keys.note ? { keyStoreNote: keys.note } : {}),
    ...(keyFallback ? { keyFallback } : {}),
    shell: 'desktop',
    cliCommand: ownCliCommand({ appPath: app.getAppPath(), execPath: process.execPath, env }),
    settings: settings.shared,
    openPath,
  });
  return { host, settings };
}

/** Opens a file or folder with the computer's default app. */
async function openPath(path: string): Promise<void> {
  const error = await shell.openPath(path);
  if (error) throw new Error(`Could not open ${path} (${error}).`);
}
