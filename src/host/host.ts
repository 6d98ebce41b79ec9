import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { ConfigError, serializeError } from '../core/errors';
import { SubmissionJournal } from '../core/journal';
import { type SecretStore, localNodeDataDir } from '../core/secrets';
import { effectiveDownloadDir, SettingsStore } from '../core/settings';
import { systemClock, type Clock } from '../core/util';
import { RENDERDROP_VERSION } from '../core/version';
import { runDoctor, type DoctorReport, type BlenderInfo } from '../render-node/blender';
import { type Profile, sameServer, trimBaseUrl } from '../shared/settings';
import { THIS_COMPUTER_PROFILE_ID, type AppState, type ProfileView, type SettingsView, type AppEvent, type SubmitFileResult, type ContractHandlers } from '../shared/contract';
import { AppPreferences } from './app/app-preferences';
import { CloudProfile } from './profiles/cloud-profile';
import { ConnectionService } from './profiles/connection-service';
import { toDoctorView } from './app/doctor-view';
import { HostEvents } from './app/host-events';
import { startLocalNode, type LocalNode } from './profiles/local-node';
import { ensureLocalProfile, LocalProfile } from './profiles/local-profile';
import { systemOpenPath, type OpenPath } from './jobs/open-path';
import { testConnectionTo, untested, type ProfileBackend } from './profiles/profile-backend';
import { ProfileSession } from './profiles/profile-session';
import { refuseRejectedKey } from './profiles/key-check';
import { applyThisComputer, DEFAULT_NODE_SETTINGS, thisComputerView } from './app/this-computer-settings';
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
  /** The settings file to use (the desktop app opens it through electron-store); default: conf. */
  settings?: SettingsStore;
  shell: 'web' | 'desktop';
  /** A Blender already probed (null: none); undefined detects one. */
  blender?: BlenderInfo | null;
  /** Start the render node of "This computer" (default true). */
  localNode?: boolean;
  /** Port the local node takes when free (default 8787, where the CLI's "This computer" looks). */
  localNodePort?: number;
  /** Default download root when the setting is empty (default `~/Renderdrop`). */
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
  subscribe(listener: (event: AppEvent) => void): () => void;
  /** Streams a dropped file into the host (browser mode); the token goes to `submissions.submit`. */
  stageUpload(fileName: string, source: Readable): Promise<{ token: string; size: number }>;
  /** The local render node's URL, when it runs. */
  readonly localNodeUrl: string | null;
  /** Resolves once the active profile's job list has been loaded (or failed to). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the host: settings and journal in the config folder, the local render node for "This
 * computer" (data in `<config>/node`), and a ProfileSession for the active profile. Every call of the
 * contract is implemented here once; transports only move requests, answers and events.
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
  const openPath = options.openPath ?? systemOpenPath;
  const secrets = options.secrets;
  const records = await journal.list();
  let hasSubmitted = records.length > 0;
  await staged.sweep(stagedFilesToKeep(records, clock.now()), clock.now()).catch(() => []);

  let node: LocalNode | null = null;
  let startError: string | null = null;
  if (options.localNode !== false) {
    try {
      node = await startLocalNode({
        dataDir: localNodeDataDir(configDir),
        secrets,
        ...(options.blender !== undefined ? { blender: options.blender } : {}),
        env,
        ...(options.logger ? { logger: options.logger } : {}),
        ...(options.localNodePort !== undefined ? { port: options.localNodePort } : {}),
        ...(prefs.thisComputer ?? DEFAULT_NODE_SETTINGS),
      });
    } catch (error) {
      startError = serializeError(error).message;
    }
  }
  ensureLocalProfile(store, node);
  const local = new LocalProfile({ node, startError, keyStore: options.keyStore, clock });
  const backendFor = (profile: Profile): ProfileBackend =>
    profile.id === THIS_COMPUTER_PROFILE_ID ? local : new CloudProfile(profile, { store, secrets, env, keyStore: options.keyStore });

  const settingsView = (): SettingsView => {
    const s = store.get();
    return {
      downloadDir: effectiveDownloadDir(s, options.home),
      downloadDirIsDefault: s.downloadDir === null,
      autoDownload: s.autoDownload,
      notifications: s.notifications,
      theme: prefs.theme,
      thisComputer: thisComputerView(prefs, node),
    };
  };
  const profileView = async (profile: Profile): Promise<ProfileView> => ({ ...profile, ...(await backendFor(profile).keyView()) });

  let session: ProfileSession | null = null;

  const state = async (): Promise<AppState> => {
    const s = store.get();
    const profiles = await Promise.all(s.profiles.map(profileView));
    return {
      version: RENDERDROP_VERSION,
      shell: options.shell,
      firstRun: !hasSubmitted && (session?.jobCount ?? 0) === 0 && s.profiles.every((p) => p.kind === 'local'),
      profiles,
      activeProfileId: s.activeProfileId,
      settings: settingsView(),
      connection: session?.connection ?? { state: 'no-profile', message: 'Choose a profile in Settings.' },
      blender: local.blender(),
      keyStore: options.keyStore,
      ...(options.keyStoreNote ? { keyStoreNote: options.keyStoreNote } : {}),
      configDir,
    };
  };
  const announce = async () => events.emit('app.changed', await state());

  let switching: Promise<void> = Promise.resolve();
  const openSession = (): Promise<void> => {
    switching = switching.then(async () => {
      await session?.close();
      session = null;
      const profile = store.activeProfile();
      if (!profile) {
        events.emit('jobs.reset', { profileId: null });
        return;
      }
      let connection: ConnectionService | null = null;
      const { client, blocked } = await backendFor(profile).connect((info) => connection?.retrying(info));
      connection = new ConnectionService({ events, clock, blocked });
      session = new ProfileSession({
        profile,
        client,
        connection,
        journal,
        prefs,
        events,
        clock,
        downloadRoot: () => settingsView().downloadDir,
        autoDownload: () => store.get().autoDownload,
        notifications: () => store.get().notifications,
        isStaged: (path) => staged.owns(path),
        releaseFile: async (path) => {
          if (!(await journal.list()).some((record) => record.file.path === path)) await staged.remove(path);
        },
        ...(options.tracker ? { tracker: options.tracker } : {}),
        ...(options.sync ? { sync: options.sync } : {}),
      });
      await session.start();
      events.emit('jobs.reset', { profileId: profile.id });
      events.emit('connection.changed', session.connection);
    });
    return switching;
  };
  await openSession();

  const active = async (): Promise<ProfileSession> => {
    await switching;
    if (!session) throw new ConfigError('No profile is active. Choose one in Settings.', { code: 'no-profile' });
    return session;
  };
  const services = async () => (await active()).services();
  const profileById = (id: string): Profile => {
    const profile = store.get().profiles.find((p) => p.id === id);
    if (!profile) throw new ConfigError('That profile no longer exists.', { code: 'no-profile' });
    return profile;
  };
  const restartIfActive = async (id: string) => {
    if (store.get().activeProfileId === id) await openSession();
  };

  const handlers: ContractHandlers = {
    'app.getState': () => state(),
    'app.renderWorkers': async () => (node ? node.workers() : null),
    'app.runDoctor': async () => {
      const report = await (options.doctor ?? (() => runDoctor({ env, platform: process.platform })))();
      return toDoctorView(report, new Date(clock.now()));
    },

    'profiles.add': async ({ name, baseUrl, apiKey }) => {
      if (apiKey) await refuseRejectedKey(trimBaseUrl(baseUrl), apiKey);
      const profile = store.addProfile({ name, baseUrl: trimBaseUrl(baseUrl), kind: 'cloud' });
      if (apiKey) await secrets.set(profile.id, apiKey);
      await announce();
      return profileView(profile);
    },
    'profiles.update': async ({ profileId, name, baseUrl }) => {
      const before = profileById(profileId);
      backendFor(before).refuseChange('address');
      const profile = store.updateProfile(profileId, { ...(name ? { name } : {}), ...(baseUrl ? { baseUrl: trimBaseUrl(baseUrl) } : {}) });
      if (!sameServer(before.baseUrl, profile.baseUrl)) await secrets.delete(profileId).catch(() => false);
      await restartIfActive(profileId);
      await announce();
      return profileView(profile);
    },
    'profiles.remove': async ({ profileId }) => {
      backendFor(profileById(profileId)).refuseChange('existence');
      const wasActive = store.get().activeProfileId === profileId;
      store.removeProfile(profileId);
      await secrets.delete(profileId).catch(() => false);
      if (wasActive) {
        store.set({ activeProfileId: THIS_COMPUTER_PROFILE_ID });
        await openSession();
      }
      await announce();
      return state();
    },
    'profiles.use': async ({ profileId }) => {
      profileById(profileId);
      store.set({ activeProfileId: profileId });
      await openSession();
      await announce();
      return state();
    },
    'profiles.setKey': async ({ profileId, apiKey }) => {
      const profile = profileById(profileId);
      backendFor(profile).refuseChange('key');
      await refuseRejectedKey(trimBaseUrl(profile.baseUrl), apiKey);
      await secrets.set(profileId, apiKey);
      await restartIfActive(profileId);
      await announce();
      return profileView(profile);
    },
    'profiles.clearKey': async ({ profileId }) => {
      const profile = profileById(profileId);
      backendFor(profile).refuseChange('key');
      await secrets.delete(profileId);
      await restartIfActive(profileId);
      await announce();
      return profileView(profile);
    },
    'profiles.hasKey': async ({ profileId }) => (await profileView(profileById(profileId))).hasKey,
    'profiles.testConnection': async ({ profileId, baseUrl, apiKey }) => {
      if (profileId) return backendFor(profileById(profileId)).testConnection({ ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) });
      if (!baseUrl) throw new ConfigError('Enter the server address to test.', { code: 'no-base-url' });
      return apiKey ? testConnectionTo(trimBaseUrl(baseUrl), apiKey) : untested('Enter an API key to test.');
    },

    'settings.get': async () => settingsView(),
    'settings.update': async ({ downloadDir, autoDownload, notifications, theme, thisComputer }) => {
      if (thisComputer !== undefined) await applyThisComputer(prefs, node, thisComputer);
      store.set({
        ...(downloadDir !== undefined ? { downloadDir } : {}),
        ...(autoDownload !== undefined ? { autoDownload } : {}),
        ...(notifications !== undefined ? { notifications } : {}),
      });
      if (theme !== undefined) await prefs.setTheme(theme);
      await announce();
      return settingsView();
    },

    'submissions.submit': async ({ files, renderConfig }) => {
      const ready: { path: string; name: string; staged: boolean }[] = [];
      const refused: SubmitFileResult[] = [];
      for (const file of files) {
        try {
          const path = 'path' in file ? file.path : await staged.resolve(file.token);
          ready.push({ path, name: basename(path), staged: !('path' in file) });
        } catch (error) {
          refused.push({ ok: false, name: 'path' in file ? basename(file.path) : 'uploaded file', error: serializeError(error) });
        }
      }
      let submitted: SubmitFileResult[] = [];
      try {
        const current = await active();
        const refusal = backendFor(current.profile).submitRefusal();
        if (refusal) throw refusal;
        submitted = await current.services().submissions.submit(ready, renderConfig);
      } finally {
        const accepted = new Set(ready.filter((_, i) => submitted[i]?.ok).map((file) => file.path));
        await Promise.all(ready.filter((file) => file.staged && !accepted.has(file.path)).map((file) => staged.remove(file.path)));
      }
      const results = [...submitted, ...refused];
      if (results.some((r) => r.ok) && !hasSubmitted) {
        hasSubmitted = true;
        await announce();
      }
      return results;
    },
    'submissions.list': async () => (await active()).submissions(),
    'submissions.review': async ({ submissionId }) => (await services()).submissions.review(submissionId),
    'submissions.startRender': async ({ submissionId, renderConfig }) => (await services()).submissions.startRender(submissionId, renderConfig),
    'submissions.chooseScene': async ({ submissionId, scenePath }) => (await services()).submissions.chooseScene(submissionId, scenePath),
    'submissions.discard': async ({ submissionId }) => (await services()).submissions.discard(submissionId),
    'submissions.continue': async ({ submissionId }) => (await services()).submissions.continue(submissionId),
    'submissions.retry': async ({ submissionId }) => (await services()).submissions.retry(submissionId),
    'submissions.dismiss': async ({ submissionId }) => (await services()).submissions.dismiss(submissionId),

    'scenes.lastSettings': async ({ fileName }) => prefs.lastSettings(fileName),

    'jobs.list': async (query) => (await active()).jobs(query),
    'jobs.get': async ({ jobId }) => (await services()).details.detail(jobId),
    'jobs.preview': async ({ jobId }) => (await services()).details.preview(jobId),
    'jobs.frames': async ({ jobId }) => (await services()).frameStrip.frames(jobId),
    'jobs.frameImage': async ({ jobId, frame }) => (await services()).frameStrip.image(jobId, frame),
    'jobs.openFrame': async ({ jobId, frame }) => {
      const path = await (await services()).frameStrip.pathOf(jobId, frame);
      await openPath(path);
      return path;
    },
    'jobs.refresh': async () => (await active()).reload(),
    'jobs.sync': async () => (await active()).sync(),
    'jobs.cancel': async ({ jobId }) => (await active()).cancel(jobId),
    'jobs.download': async ({ jobId }) => (await services()).downloads.download(jobId),
    'jobs.openFolder': async ({ jobId }) => {
      const dir = await (await services()).downloads.ensureJobDir(jobId);
      await openPath(dir);
      return dir;
    },
    'jobs.submitAgain': async ({ jobId }) => (await services()).submissions.submitAgain(jobId),
    'jobs.verifyFolder': async ({ jobId }) => (await services()).frames.verifyFolder(jobId),
    'jobs.renderMissing': async ({ jobId }) => (await services()).frames.renderMissing(jobId),
  };

  return {
    handlers,
    subscribe: (listener) => events.subscribe(listener),
    stageUpload: async (fileName, source) => {
      const { token, size } = await staged.stage(fileName, source);
      return { token, size };
    },
    get localNodeUrl() {
      return node?.url ?? null;
    },
    ready: async () => {
      await switching;
      await session?.whenLoaded();
    },
    close: async () => {
      await switching;
      await session?.close();
      session = null;
      await node?.close();
    },
  };
}
