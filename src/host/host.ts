import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { serializeError } from '../core/errors';
import { SubmissionJournal } from '../core/journal';
import { type SecretStore, localNodeDataDir } from '../core/secrets';
import { effectiveDownloadDir, SettingsStore } from '../core/settings';
import { systemClock, type Clock } from '../core/util';
import type { DoctorReport, BlenderInfo } from '../render-node/blender';
import type { Profile } from '../shared/settings';
import { THIS_COMPUTER_PROFILE_ID, type AppState, type AppEvent, type ContractHandlers } from '../shared/contract';
import { addonHandlers } from './addon/addon-handlers';
import { systemAddonInstaller, type CliCommand } from './addon/system-installer';

export type { CliCommand };
import { appHandlers } from './app/app-handlers';
import { AppPreferences } from './environment/app-preferences';
import { appViews } from './app/app-views';
import { HostEvents } from './environment/host-events';
import { fileHandlers } from './files/file-handlers';
import { homeConfinedHandlers } from './files/page-handlers';
import { DEFAULT_NODE_SETTINGS } from './app/this-computer-settings';
import { HiddenJobs } from './environment/hidden-jobs';
import { jobHandlers } from './jobs/job-handlers';
import { workerHandlers } from './jobs/studio/worker-handlers';
import { systemOpenPath, type OpenPath } from './jobs/open-path';
import { ActiveSession } from './session/active-session';
import { CloudProfile } from './profiles/cloud-profile';
import { startLocalNode, type LocalNode } from './profiles/local-node';
import { ensureLocalProfile, LocalProfile } from './profiles/local-profile';
import type { ProfileBackend } from './profiles/profile-backend';
import { ProfileKeys, type KeyFallback } from './profiles/profile-keys';
import { profileHandlers } from './profiles/profile-handlers';
import { submissionHandlers } from './submissions/submission-handlers';
import { StagedFiles, stagedFilesToKeep } from './submissions/staged-files';

/** How to build the app's back end. */
export interface HostOptions {
  /** Settings and data folder; default `RENDERDROP_CONFIG_DIR`, else the OS config folder. */
  configDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Where API keys live; `keyStore` says what kind it is. */
  secrets: SecretStore;
  keyStore: AppState['keyStore'];
  /** Why keys are not in the system keychain, shown in Settings (the desktop app's fallback). */
  keyStoreNote?: string;
  /** Where a farm's key may go when the keychain refuses it and the artist agrees (the desktop app's encrypted file). */
  keyFallback?: KeyFallback;
  /** The settings file to use (the desktop app opens it through electron-store); default: conf. */
  settings?: SettingsStore;
  shell: 'web' | 'desktop';
  /** A Blender already probed (null: none); undefined detects one. */
  blender?: BlenderInfo | null;
  /** Start the render node of "This computer" (default true). */
  localNode?: boolean;
  /** Port the local node takes when free (default 8787, where the CLI's "This computer" looks). */
  localNodePort?: number;
  /** The command that runs this Renderdrop's own CLI, recorded with the Blender add-on it installs (null: none to record). */
  cliCommand?: CliCommand | null;
  /** The artist's home folder: the default download root's parent (`~/Renderdrop`) and the file browser's root. */
  home?: string;
  openPath?: OpenPath;
  doctor?: () => Promise<DoctorReport>;
  clock?: Clock;
  logger?: Logger;
  tracker?: { activeIntervalMs?: number; idleIntervalMs?: number };
  /** Rhythm of the queue's list sync (defaults: 5 s while a job is active, 8 s when idle). */
  sync?: { activeIntervalMs?: number; idleIntervalMs?: number };
}

/** The app's back end: the contract's handlers, its events, and what browser mode adds. */
export interface AppHost {
  handlers: ContractHandlers;
  /**
   * The handlers browser mode serves its page: the same calls, but a path on disk the page names (a
   * scene, the download folder) must be inside the artist's home folder. Transports that trust their
   * caller (the desktop app's IPC, in-process callers) use `handlers`.
   */
  pageHandlers: ContractHandlers;
  subscribe(listener: (event: AppEvent) => void): () => void;
  /** Streams a dropped file into the host (browser mode); the token goes to `submissions.submit`. */
  stageUpload(fileName: string, source: Readable): Promise<{ token: string; size: number }>;
  /** The local render node's URL, when it runs. */
  readonly localNodeUrl: string | null;
  /** The Renderdrop config folder (that of config.json). */
  readonly configDir: string;
  /** Resolves once the active profile's job list has been loaded (or failed to). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the host: settings and journal in the config folder, the local render node for "This
 * computer" (data in `<config>/node`), and a session for the active profile. Every call of the
 * contract is implemented once, by the handlers of its namespace; transports only move requests,
 * answers and events.
 */
export async function createHost(options: HostOptions): Promise<AppHost> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const store = options.settings ?? new SettingsStore({ ...(options.configDir ? { configDir: options.configDir } : {}), env });
  const configDir = store.dir;
  const prefs = new AppPreferences(configDir);
  const journal = new SubmissionJournal({ dataDir: configDir, clock });
  const staged = new StagedFiles(join(configDir, 'staged'));
  const events = new HostEvents();
  const secrets = new ProfileKeys({ primary: options.secrets, primaryKind: options.keyStore, fallback: options.keyFallback ?? null });
  const records = await journal.list();
  let hasSubmitted = records.length > 0;
  await staged.sweep(stagedFilesToKeep(records, clock.now()), clock.now()).catch(() => []);

  const { node, startError } = await startThisComputer(options, { configDir, env, prefs });
  ensureLocalProfile(store, node);
  const local = new LocalProfile({ node, startError, keyStore: options.keyStore, clock });
  const backendFor = (profile: Profile): ProfileBackend =>
    profile.id === THIS_COMPUTER_PROFILE_ID ? local : new CloudProfile(profile, { store, secrets, env });

  const sessions = new ActiveSession({
    activeProfile: () => store.activeProfile(),
    profileById: (profileId) => store.get().profiles.find((p) => p.id === profileId) ?? null,
    makeActive: (profileId) => store.set({ activeProfileId: profileId }),
    backendFor,
    events,
    clock,
    environment: {
      journal,
      prefs,
      events,
      clock,
      downloadRoot: () => effectiveDownloadDir(store.get(), options.home),
      autoDownload: () => store.get().autoDownload,
      notifications: () => store.get().notifications,
      isStaged: (path) => staged.owns(path),
      hiddenJobs: new HiddenJobs(configDir),
      releaseFile: async (path) => {
        if (!(await journal.list()).some((record) => record.file.path === path)) await staged.remove(path);
      },
      ...(options.tracker ? { tracker: options.tracker } : {}),
      ...(options.sync ? { sync: options.sync } : {}),
    },
  });
  const views = appViews({
    store,
    prefs,
    events,
    node,
    local,
    backendFor,
    sessions,
    hasSubmitted: () => hasSubmitted,
    fixed: fixedState(options, configDir),
    ...(options.home !== undefined ? { home: options.home } : {}),
  });
  await sessions.switch();

  const home = options.home ?? homedir();
  const handlers: ContractHandlers = {
    ...appHandlers({ views, store, prefs, node, env, clock, ...(options.doctor ? { doctor: options.doctor } : {}) }),
    ...profileHandlers({ store, secrets, backendFor, views, sessions }),
    ...submissionHandlers({
      sessions,
      staged,
      backendFor,
      submitted: async () => {
        if (hasSubmitted) return;
        hasSubmitted = true;
        await views.announce();
      },
    }),
    ...jobHandlers({ sessions, openPath: options.openPath ?? systemOpenPath }),
    ...workerHandlers({ sessions }),
    ...fileHandlers({ home, prefs }),
    ...addonHandlers(systemAddonInstaller({ env, home, configured: () => (node?.blender ? [node.blender.path] : []), cli: options.cliCommand ?? null })),
  };
  return appHost({ handlers, pageHandlers: homeConfinedHandlers(handlers, home), events, staged, node, sessions, configDir });
}

/** What the app state says that never changes while the host runs. */
function fixedState(options: HostOptions, configDir: string): Pick<AppState, 'shell' | 'keyStore' | 'keyStoreNote' | 'keyFallback' | 'configDir'> {
  return {
    shell: options.shell,
    keyStore: options.keyStore,
    ...(options.keyStoreNote ? { keyStoreNote: options.keyStoreNote } : {}),
    ...(options.keyFallback ? { keyFallback: options.keyFallback.kind } : {}),
    configDir,
  };
}

/** Starts the render node of "This computer" unless told not to; a node that fails to start leaves why. */
async function startThisComputer(
  options: HostOptions,
  context: { configDir: string; env: NodeJS.ProcessEnv; prefs: AppPreferences },
): Promise<{ node: LocalNode | null; startError: string | null }> {
  if (options.localNode === false) return { node: null, startError: null };
  try {
    const node = await startLocalNode({
      dataDir: localNodeDataDir(context.configDir),
      secrets: options.secrets,
      ...(options.blender !== undefined ? { blender: options.blender } : {}),
      env: context.env,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.localNodePort !== undefined ? { port: options.localNodePort } : {}),
      ...(context.prefs.thisComputer ?? DEFAULT_NODE_SETTINGS),
    });
    return { node, startError: null };
  } catch (error) {
    return { node: null, startError: serializeError(error).message };
  }
}

/** The host as transports see it: the handlers, the events, browser mode's uploads, and closing. */
function appHost(parts: { handlers: ContractHandlers; pageHandlers: ContractHandlers; events: HostEvents; staged: StagedFiles; node: LocalNode | null; sessions: ActiveSession; configDir: string }): AppHost {
  const { events, staged, node, sessions } = parts;
  return {
    handlers: parts.handlers,
    configDir: parts.configDir,
    pageHandlers: parts.pageHandlers,
    subscribe: (listener) => events.subscribe(listener),
    stageUpload: async (fileName, source) => {
      const { token, size } = await staged.stage(fileName, source);
      return { token, size };
    },
    get localNodeUrl() {
      return node?.url ?? null;
    },
    ready: () => sessions.ready(),
    close: async () => {
      await sessions.close();
      await node?.close();
    },
  };
}
