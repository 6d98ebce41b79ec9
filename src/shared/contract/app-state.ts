import type { Profile } from '../settings';

/** The id of the profile that runs the render node inside the app. */
export { THIS_COMPUTER_PROFILE_ID } from '../settings';

/** Colour scheme of the UI: dark by default, or whatever the operating system prefers. */
export const THEMES = ['dark', 'light', 'system'] as const;
export type Theme = (typeof THEMES)[number];

/** A profile as the UI sees it: whether a key is stored, never the key. */
export interface ProfileView extends Profile {
  hasKey: boolean;
  /**
   * Where the key lives: the OS keychain, a file encrypted with the desktop app's safeStorage (no
   * keychain on this machine, or the keychain refused the key), the key file the CLI and browser mode
   * share (0600, not encrypted, by the artist's choice), this process's memory only, or the
   * environment; `unreadable` when the keychain refuses to say.
   */
  keyStorage: 'keychain' | 'encrypted-file' | 'file' | 'memory' | 'env' | 'none' | 'unreadable';
}

/**
 * Where a key the system keychain refused may be kept instead: an encrypted file (desktop app), the
 * key file readable only by this user (browser mode and the CLI), or this run only.
 */
export const KEY_PLACES = ['encrypted-file', 'file', 'session'] as const;
export type KeyPlace = (typeof KEY_PLACES)[number];

/** The settings the UI may read and change. */
export interface SettingsView {
  /** The folder outputs go to (the default one filled in). */
  downloadDir: string;
  downloadDirIsDefault: boolean;
  autoDownload: boolean;
  notifications: boolean;
  theme: Theme;
  /** How "This computer" renders (null when its render node does not run). */
  thisComputer: ThisComputerSettings | null;
}

/** The render settings of "This computer", and the limits they may take. */
export interface ThisComputerSettings {
  /** Renders at once. */
  renders: number;
  /** Blender threads per render; null: every core. */
  threads: number | null;
  /** Cores of this computer (the most threads). */
  cores: number;
  /** The most renders at once. */
  maxRenders: number;
}

/** What the doctor found about this computer's Blender, with each problem in words. */
export interface DoctorView {
  ok: boolean;
  blenderPath: string | null;
  blenderVersion: string | null;
  cyclesDevices: string[];
  denoisers: string[];
  viewTransforms: string[];
  eevee: 'usable' | 'not-usable' | 'not-checked';
  searched: string[];
  problems: string[];
  checkedAt: string;
}

/** The Blender of "This computer". */
export interface BlenderStatus {
  found: boolean;
  path: string | null;
  version: string | null;
  /** How to install Blender or point to one, when none was found. */
  hint: string | null;
}

/**
 * Whether the active profile's server can be used right now. `retryInSeconds` counts from `since`.
 */
export type ConnectionState =
  | { state: 'ok' }
  | { state: 'starting'; message: string }
  | { state: 'no-profile'; message: string }
  | { state: 'no-key'; message: string }
  | { state: 'unreachable'; message: string; retryInSeconds: number; since: string }
  | { state: 'key-rejected'; message: string }
  | { state: 'rate-limited'; message: string; retryInSeconds: number; since: string }
  | { state: 'blender-missing'; message: string };

/** Everything the UI needs to draw its frame and decide which state to explain. */
export interface AppState {
  version: string;
  /** Browser mode or the desktop app. */
  shell: 'web' | 'desktop';
  /** Nothing has been submitted yet and no cloud profile was added. */
  firstRun: boolean;
  profiles: ProfileView[];
  activeProfileId: string | null;
  settings: SettingsView;
  connection: ConnectionState;
  blender: BlenderStatus;
  /** Where keys are kept on this machine. */
  keyStore: 'keychain' | 'encrypted-file' | 'memory';
  /** Why keys are not in the system keychain and what to do about it, when they are not. */
  keyStoreNote?: string;
  /**
   * Where a key the keychain refuses can be kept besides this run's memory: an encrypted file (the
   * desktop app), or the key file shared with the CLI (browser mode).
   */
  keyFallback?: 'encrypted-file' | 'file';
  /** The settings folder (`RENDERDROP_CONFIG_DIR` moves it). */
  configDir: string;
}

/** Result of "Test connection". */
export interface ConnectionTest {
  ok: boolean;
  message: string;
  /** Jobs the key can see, when the test succeeded. */
  jobCount: number | null;
  status: number | null;
}
