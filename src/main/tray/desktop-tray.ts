import { join } from 'node:path';
import { Menu, Tray, nativeImage, type App, type BrowserWindow, type NativeImage } from 'electron';
import { trayMenuTemplate, type TrayActions, type TrayMenuSettings } from './tray-menu';
import type { TrayLook, TrayState } from './tray-state';

/** The tray icon of each look (`tray-<look>.png`, with its `@2x` beside it). */
export function trayIconPath(iconsDir: string, look: TrayLook): string {
  return join(iconsDir, `tray-${look}.png`);
}

/**
 * The tray icon: its image follows the look, its tooltip the state, its menu the active jobs and
 * switches. A click shows the window (where the platform reports clicks).
 */
export class DesktopTray {
  readonly #tray: Tray;
  readonly #images: Record<TrayLook, NativeImage>;
  readonly #actions: TrayActions;
  #look: TrayLook = 'idle';
  #tooltip = 'Renderdrop';
  #menuKey = '';

  constructor(iconsDir: string, actions: TrayActions) {
    this.#images = {
      idle: nativeImage.createFromPath(trayIconPath(iconsDir, 'idle')),
      active: nativeImage.createFromPath(trayIconPath(iconsDir, 'active')),
      error: nativeImage.createFromPath(trayIconPath(iconsDir, 'error')),
    };
    this.#actions = actions;
    this.#tray = new Tray(this.#images.idle);
    this.#tray.setToolTip(this.#tooltip);
    this.#tray.on('click', () => actions.showWindow());
  }

  /** Shows a new state (the menu is rebuilt only when its text changed). */
  update(state: TrayState, settings: TrayMenuSettings): void {
    if (state.look !== this.#look) {
      this.#look = state.look;
      this.#tray.setImage(this.#images[state.look]);
    }
    if (state.tooltip !== this.#tooltip) {
      this.#tooltip = state.tooltip;
      this.#tray.setToolTip(state.tooltip);
    }
    const template = trayMenuTemplate(state, settings, this.#actions);
    const key = JSON.stringify(template.map((item) => [item.label, item.checked, item.enabled]));
    if (key !== this.#menuKey) {
      this.#menuKey = key;
      this.#tray.setContextMenu(Menu.buildFromTemplate(template));
    }
  }

  get tooltip(): string {
    return this.#tooltip;
  }

  get look(): TrayLook {
    return this.#look;
  }

  destroy(): void {
    this.#tray.destroy();
  }
}

/** Overall progress on the taskbar (Windows, Linux Unity) or dock (macOS), and the badge of active work. */
export function showTaskbarProgress(window: Pick<BrowserWindow, 'setProgressBar' | 'isDestroyed'> | null, app: Pick<App, 'setBadgeCount'>, state: TrayState): void {
  if (window && !window.isDestroyed()) window.setProgressBar(state.progress, { mode: state.look === 'error' ? 'error' : state.progress > 1 ? 'indeterminate' : 'normal' });
  app.setBadgeCount(state.badge);
}
