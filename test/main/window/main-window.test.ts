import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';

const created: { options: Record<string, unknown>; window: FakeWindow }[] = [];

class FakeWindow extends EventEmitter {
  webContents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn() });
  show = vi.fn();
  constructor(options: Record<string, unknown>) {
    super();
    created.push({ options, window: this });
  }
}

vi.mock('electron', () => ({ BrowserWindow: FakeWindow }));

const { createMainWindow, mainWindowOptions } = await import('../../../src/main/window/main-window');

describe('the main window', () => {
  it('is isolated and sandboxed, without Node.js, webviews or navigation by dropping a file', () => {
    const prefs = mainWindowOptions({ preload: '/app/out/preload/index.cjs' }).webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
  });

  it('is created guarded, titled Renderdrop, and shown once ready', () => {
    const window = createMainWindow({ preload: '/p.cjs', appOrigin: 'app://renderdrop', openExternal: async () => undefined }) as unknown as FakeWindow;
    expect(created.at(-1)!.options).toMatchObject({ title: 'Renderdrop', show: false });
    expect(window.webContents.setWindowOpenHandler).toHaveBeenCalledOnce();
    expect(window.webContents.listenerCount('will-navigate')).toBe(1);
    expect(window.show).not.toHaveBeenCalled();
    window.emit('ready-to-show');
    expect(window.show).toHaveBeenCalledOnce();
  });
});
