import { basename, dirname, extname } from 'node:path';
import ElectronStore from 'electron-store';
import { z } from 'zod';
import { SettingsStore } from '../../core/settings';

/** The key of the desktop app's own preferences inside the shared settings file. */
export const DESKTOP_SETTINGS_KEY = 'desktop';

/** What only the desktop app reads. */
export interface DesktopPreferences {
  /** Closing the window while work is active hides it; the app keeps working in the tray. */
  keepRunningInTray: boolean;
}

const preferencesSchema = z
  .object({ keepRunningInTray: z.boolean().catch(true) })
  .catch({ keepRunningInTray: true });

/**
 * The settings of the desktop app: one electron-store on the very `config.json` the CLI reads with
 * conf (same folder, same format, `RENDERDROP_CONFIG_DIR` honoured). The shared settings go through
 * a SettingsStore on it; the desktop's own preferences live under one extra key the CLI keeps.
 */
export class DesktopSettings {
  readonly shared: SettingsStore;
  readonly #file: ElectronStore<Record<string, unknown>>;

  constructor(file: ElectronStore<Record<string, unknown>>) {
    this.#file = file;
    this.shared = new SettingsStore({ backend: file });
  }

  /** Opens the settings file the CLI would open with this environment. */
  static open(env: Record<string, string | undefined> = process.env): DesktopSettings {
    const path = new SettingsStore({ env }).path;
    const file = new ElectronStore<Record<string, unknown>>({
      cwd: dirname(path),
      name: basename(path, extname(path)),
      configFileMode: 0o600,
    });
    return new DesktopSettings(file);
  }

  /** The settings file. */
  get path(): string {
    return this.#file.path;
  }

  get preferences(): DesktopPreferences {
    return preferencesSchema.parse(this.#file.get(DESKTOP_SETTINGS_KEY));
  }

  /** Changes desktop preferences. */
  setPreferences(patch: Partial<DesktopPreferences>): DesktopPreferences {
    const next = { ...this.preferences, ...patch };
    this.#file.set(DESKTOP_SETTINGS_KEY, next);
    return next;
  }
}
