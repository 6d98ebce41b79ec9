import { effectiveDownloadDir, type SettingsStore } from '../../core/settings';
import { RENDERDROP_VERSION } from '../../core/version';
import type { Profile } from '../../shared/settings';
import type { AppState, ProfileView, SettingsView } from '../../shared/contract';
import type { ActiveSession } from '../session';
import type { LocalNode, LocalProfile, ProfileBackend } from '../profiles';
import type { AppPreferences, HostEvents } from '../environment';
import { thisComputerView } from './this-computer-settings';

/** What the app's views are read from. */
export interface AppViewDeps {
  store: SettingsStore;
  prefs: AppPreferences;
  events: HostEvents;
  node: LocalNode | null;
  local: LocalProfile;
  backendFor: (profile: Profile) => ProfileBackend;
  sessions: ActiveSession;
  /** Whether anything was ever submitted from this computer. */
  hasSubmitted: () => boolean;
  /** What does not change while the app runs. */
  fixed: Pick<AppState, 'shell' | 'keyStore' | 'keyStoreNote' | 'keyFallback' | 'configDir'>;
  /** Default download root when the setting is empty. */
  home?: string;
}

/** The app state, settings and profiles as the UI sees them, and the event that says they changed. */
export interface AppViews {
  settings(): SettingsView;
  profile(profile: Profile): Promise<ProfileView>;
  state(): Promise<AppState>;
  /** Sends the current app state to every listener (`app.changed`). */
  announce(): Promise<void>;
}

/** Builds the app's views on the settings file, the preferences and the active session. */
export function appViews(deps: AppViewDeps): AppViews {
  const { store, prefs } = deps;
  const settings = (): SettingsView => {
    const s = store.get();
    return {
      downloadDir: effectiveDownloadDir(s, deps.home),
      downloadDirIsDefault: s.downloadDir === null,
      autoDownload: s.autoDownload,
      notifications: s.notifications,
      theme: prefs.theme,
      thisComputer: thisComputerView(prefs, deps.node),
    };
  };
  const profile = async (p: Profile): Promise<ProfileView> => ({ ...p, ...(await deps.backendFor(p).keyView()) });
  const state = async (): Promise<AppState> => {
    const s = store.get();
    const profiles = await Promise.all(s.profiles.map(profile));
    const session = deps.sessions.current;
    return {
      version: RENDERDROP_VERSION,
      shell: deps.fixed.shell,
      firstRun: !deps.hasSubmitted() && (session?.jobCount ?? 0) === 0 && s.profiles.every((p) => p.kind === 'local'),
      profiles,
      activeProfileId: s.activeProfileId,
      settings: settings(),
      connection: session?.connection ?? { state: 'no-profile', message: 'Choose a profile in Settings.' },
      blender: deps.local.blender(),
      keyStore: deps.fixed.keyStore,
      ...(deps.fixed.keyStoreNote ? { keyStoreNote: deps.fixed.keyStoreNote } : {}),
      ...(deps.fixed.keyFallback ? { keyFallback: deps.fixed.keyFallback } : {}),
      configDir: deps.fixed.configDir,
    };
  };
  const announce = async () => deps.events.emit('app.changed', await state());
  return { settings, profile, state, announce };
}
