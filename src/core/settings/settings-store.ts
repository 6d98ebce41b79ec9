import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_SETTINGS, profileSchema, settingsSchema, type Profile, type Settings } from '../../shared/settings';
import { ensurePrivateFolder, FolderNotPrivateError } from '../../node-common/private-folder';
import { ConfigError } from '../errors';
import { defaultConfigDir, JsonSettingsFile } from './json-settings-file';

/** Where settings live and how they are found. */
export interface SettingsStoreOptions {
  /** Folder of `config.json` and the journal; defaults to `RENDERDROP_CONFIG_DIR`, else the OS config folder. */
  configDir?: string;
  env?: Record<string, string | undefined>;
  /**
   * The file to read and write instead of `config.json` in the folder: the desktop app passes an
   * electron-store opened on the same file (electron-store writes the same JSON).
   */
  backend?: SettingsBackend;
}

/** A JSON settings file: the whole object read and written at once (conf and electron-store both are). */
export interface SettingsBackend {
  store: Record<string, unknown>;
  readonly path: string;
}

/** The project name shared with electron-store in the desktop app. */
export const SETTINGS_PROJECT_NAME = 'renderdrop';

/** The settings folder `RENDERDROP_CONFIG_DIR` asks for, or undefined for the OS default. */
export function configDirFromEnv(env: Record<string, string | undefined>): string | undefined {
  const value = env.RENDERDROP_CONFIG_DIR?.trim();
  return value ? value : undefined;
}

/**
 * Settings persisted in `<dir>/config.json`, in the format electron-store (conf) uses, so the desktop
 * app (electron-store with `cwd` set to this folder) and the CLI share one file.
 * Values are validated on read; a broken field falls back to its default.
 */
export class SettingsStore {
  readonly #file: SettingsBackend;

  /**
   * A settings folder other users of this computer can read (it holds the journal, the bundles of
   * scenes being sent and the app's own render node) is made private (0700) here; one that cannot be
   * is refused with a ConfigError in one line.
   */
  constructor(options: SettingsStoreOptions = {}) {
    if (options.backend) {
      this.#file = options.backend;
    } else {
      const dir = options.configDir ?? configDirFromEnv(options.env ?? process.env) ?? defaultConfigDir(SETTINGS_PROJECT_NAME, options.env ?? process.env);
      this.#file = new JsonSettingsFile(join(dir, 'config.json'));
    }
    keepPrivate(this.dir);
  }

  /** Full path of the settings file. */
  get path(): string {
    return this.#file.path;
  }

  /** The settings folder (the journal lives in it too). */
  get dir(): string {
    return dirname(this.#file.path);
  }

  /** The current settings, validated field by field. */
  get(): Settings {
    const raw = this.#file.store as Partial<Record<keyof Settings, unknown>>;
    const shape = settingsSchema.shape;
    const out = { ...DEFAULT_SETTINGS };
    for (const key of Object.keys(shape) as (keyof Settings)[]) {
      const parsed = shape[key].safeParse(raw[key]);
      if (parsed.success) (out as Record<string, unknown>)[key] = parsed.data;
    }
    if (!Array.isArray(raw.profiles)) return out;
    out.profiles = raw.profiles.flatMap((p) => {
      const parsed = profileSchema.safeParse(p);
      return parsed.success ? [parsed.data] : [];
    });
    return out;
  }

  /** Changes some settings; keys this schema does not know (the desktop app's own) are kept. */
  set(patch: Partial<Settings>): Settings {
    const next = settingsSchema.parse({ ...this.get(), ...patch });
    this.#file.store = { ...this.#file.store, ...next };
    return next;
  }

  /** The active profile, or null when none is set or it no longer exists. */
  activeProfile(): Profile | null {
    const settings = this.get();
    return settings.profiles.find((p) => p.id === settings.activeProfileId) ?? null;
  }

  /** Adds a profile (an id is made when absent); the first profile becomes active. */
  addProfile(profile: Omit<Profile, 'id'> & { id?: string }): Profile {
    const settings = this.get();
    const created = profileSchema.parse({ ...profile, id: profile.id ?? randomUUID() });
    if (settings.profiles.some((p) => p.id === created.id)) throw new ConfigError(`A profile with id ${created.id} already exists.`);
    if (settings.profiles.some((p) => p.name.toLowerCase() === created.name.toLowerCase())) {
      throw new ConfigError(`A profile named "${created.name}" already exists. Choose another name.`);
    }
    this.set({ profiles: [...settings.profiles, created], activeProfileId: settings.activeProfileId ?? created.id });
    return created;
  }

  /** Changes a profile's name, URL or kind. */
  updateProfile(id: string, patch: Partial<Omit<Profile, 'id'>>): Profile {
    const settings = this.get();
    const current = settings.profiles.find((p) => p.id === id);
    if (!current) throw new ConfigError(`No profile with id ${id}. List them with \`renderdrop profile list\`.`);
    const updated = profileSchema.parse({ ...current, ...patch, id });
    this.set({ profiles: settings.profiles.map((p) => (p.id === id ? updated : p)) });
    return updated;
  }

  /** Removes a profile (its key should be deleted from the secret store by the caller). */
  removeProfile(id: string): void {
    const settings = this.get();
    const profiles = settings.profiles.filter((p) => p.id !== id);
    this.set({ profiles, activeProfileId: settings.activeProfileId === id ? (profiles[0]?.id ?? null) : settings.activeProfileId });
  }

  /** Makes a profile active, found by id or (case-insensitive) name. */
  useProfile(idOrName: string): Profile {
    const settings = this.get();
    const profile = settings.profiles.find((p) => p.id === idOrName) ?? settings.profiles.find((p) => p.name.toLowerCase() === idOrName.toLowerCase());
    if (!profile) throw new ConfigError(`No profile "${idOrName}". List them with \`renderdrop profile list\`.`);
    this.set({ activeProfileId: profile.id });
    return profile;
  }
}

/** The folder outputs go to: the setting, else `~/Renderdrop`. */
export function effectiveDownloadDir(settings: Pick<Settings, 'downloadDir'>, home: string = homedir()): string {
  return settings.downloadDir ?? join(home, 'Renderdrop');
}

/** Makes an existing settings folder private again when others can read it (see SettingsStore). */
function keepPrivate(dir: string): void {
  if (!existsSync(dir)) return;
  try {
    ensurePrivateFolder(dir, 'settings folder');
  } catch (error) {
    if (error instanceof FolderNotPrivateError) throw new ConfigError(error.message);
    throw error;
  }
}
