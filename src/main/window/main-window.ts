import { BrowserWindow, type BrowserWindowConstructorOptions } from 'electron';
import { guardWebContents, type OpenExternal } from './web-guards';

/** What the window needs. */
export interface MainWindowOptions {
  /** The preload script (CommonJS: sandboxed preloads cannot load ES modules). */
  preload: string;
  /** The origin of the app's pages (navigation and IPC stay on it). */
  appOrigin: string;
  icon?: string;
  openExternal: OpenExternal;
}

/** The window's options: isolated, sandboxed, no Node.js in the page, the contract through the preload only. */
export function mainWindowOptions(options: Pick<MainWindowOptions, 'preload' | 'icon'>): BrowserWindowConstructorOptions {
  return {
    title: 'Renderdrop',
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    backgroundColor: '#17181b',
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}

/** The app's one window, guarded, shown once its first paint is ready. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(options));
  guardWebContents(window.webContents, options.appOrigin, options.openExternal);
  window.once('ready-to-show', () => window.show());
  return window;
}
