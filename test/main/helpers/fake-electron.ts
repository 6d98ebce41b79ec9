import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

function createFakeElectron() {
  const ipcHandlers = new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>();
  const record = { loaded: [] as string[], schemes: [] as string[], dialogs: [] as { message: string; detail: string }[], permissionsDenied: false };
  const windows: FakeWindow[] = [];
  const trays: { tooltip: string; menus: number; destroyed: boolean }[] = [];
  class FakeWindow extends EventEmitter {
    webContents = Object.assign(new EventEmitter(), { id: 41, send: vi.fn(), setWindowOpenHandler: vi.fn(), isDestroyed: () => false });
    loadURL = async (url: string) => {
      record.loaded.push(url);
    };
    show = vi.fn();
    hide = vi.fn();
    focus = vi.fn();
    restore = vi.fn();
    setProgressBar = vi.fn();
    isFocused = () => false;
    isMinimized = () => false;
    isDestroyed = () => false;
    constructor(readonly options: unknown) {
      super();
      windows.push(this);
    }
  }
  class FakeTray extends EventEmitter {
    state = { tooltip: '', menus: 0, destroyed: false };
    constructor() {
      super();
      trays.push(this.state);
    }
    setImage() {}
    setToolTip(text: string) {
      this.state.tooltip = text;
    }
    setContextMenu() {
      this.state.menus++;
    }
    destroy() {
      this.state.destroyed = true;
    }
  }
  class FakeNotification extends EventEmitter {
    static isSupported = () => true;
    show() {}
    close() {}
  }
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    getAppPath: () => process.cwd(),
    getPath: () => '/nonexistent',
    getVersion: () => '0.1.0',
    quit: vi.fn(),
    exit: vi.fn(),
    setBadgeCount: vi.fn(() => true),
  });
  const electron = {
    app,
    BrowserWindow: FakeWindow,
    Tray: FakeTray,
    Notification: FakeNotification,
    Menu: { buildFromTemplate: (template: unknown) => ({ template }) },
    nativeImage: { createFromPath: (path: string) => ({ path }) },
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, payload: unknown) => Promise<unknown>) => ipcHandlers.set(channel, handler),
      removeHandler: (channel: string) => ipcHandlers.delete(channel),
      on: vi.fn(),
    },
    protocol: { handle: (scheme: string) => record.schemes.push(scheme), registerSchemesAsPrivileged: vi.fn() },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: vi.fn() },
        setPermissionRequestHandler: () => (record.permissionsDenied = true),
        setPermissionCheckHandler: vi.fn(),
      },
    },
    shell: { openExternal: vi.fn(async () => undefined), openPath: vi.fn(async () => '') },
    dialog: {
      showMessageBox: async (...args: unknown[]) => {
        record.dialogs.push(args.at(-1) as { message: string; detail: string });
        return { response: 0, checkboxChecked: false };
      },
      showErrorBox: vi.fn(),
    },
    safeStorage: { isAsyncEncryptionAvailable: async () => false, getSelectedStorageBackend: () => 'basic_text' },
  };
  return { electron, app, ipcHandlers, windows, trays, record };
}

/**
 * A stand-in for Electron's main-process API (app, windows, IPC, protocol, session, tray,
 * notifications, dialogs), recording what the code under test does with it in plain arrays (Vitest
 * clears mock call history between tests). Use with
 * `vi.mock('electron', async () => (await import('./helpers/fake-electron')).electronModule())`.
 */
export const fakeElectron = createFakeElectron();

/** The module `electron` resolves to under the mock (named and default exports). */
export function electronModule() {
  return { ...fakeElectron.electron, default: fakeElectron.electron };
}
