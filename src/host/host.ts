import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { ApiClient } from '../core/api/api-client';
import { AuthError, ConfigError, serializeError } from '../core/errors';
import { SubmissionJournal } from '../core/journal/submission-journal';
import type { SecretStore } from '../core/secrets/secret-store';
import { resolveConnection } from '../core/settings/resolve-connection';
import { effectiveDownloadDir, SettingsStore } from '../core/settings/settings-store';
import { systemClock, type Clock } from '../core/util/clock';
import { RENDERDROP_VERSION } from '../core/version';
import { runDoctor, type DoctorReport } from '../render-node/blender/doctor';
import type { BlenderInfo } from '../render-node/blender/probe';
import type { Profile } from '../shared/settings';
import { THIS_COMPUTER_PROFILE_ID, type AppState, type ConnectionState, type ConnectionTest, type DoctorView, type ProfileView, type SettingsView } from '../shared/contract/app-state';
import type { AppEvent } from '../shared/contract/events';
import type { SubmitFileResult } from '../shared/contract/submission-views';
import type { ContractHandlers } from '../shared/contract/dispatch';
import { AppPreferences } from './app-preferences';
import { toDoctorView } from './doctor-view';
import { HostEvents } from './host-events';
import { localNodeDataDir } from '../core/secrets/local-node-key';
import { startLocalNode, type LocalNode } from './local-node';
import { systemOpenPath, type OpenPath } from './open-path';
import { ProfileSession } from './profile-session';
import { StagedFiles, stagedFilesToKeep } from './staged-files';

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

const LOCAL_PROFILE_NAME = 'This computer';

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
  let doctor: DoctorView | null = null;
  const records = await journal.list();
  let hasSubmitted = records.length > 0;
  await staged.sweep(stagedFilesToKeep(records, clock.now()), clock.now()).catch(() => []);

  let local: LocalNode | null = null;
  let localError: string | null = null;
  if (options.localNode !== false) {
    try {
      local = await startLocalNode({
        dataDir: localNodeDataDir(configDir),
        secrets,
        ...(options.blender !== undefined ? { blender: options.blender } : {}),
        env,
        ...(options.logger ? { logger: options.logger } : {}),
        ...(options.localNodePort !== undefined ? { port: options.localNodePort } : {}),
      });
    } catch (error) {
      localError = serializeError(error).message;
    }
  }
  ensureLocalProfile(store, local);

  const settingsView = (): SettingsView => {
    const s = store.get();
    return {
      downloadDir: effectiveDownloadDir(s, options.home),
      downloadDirIsDefault: s.downloadDir === null,
      autoDownload: s.autoDownload,
      notifications: s.notifications,
      theme: prefs.theme,
    };
  };

  const blenderStatus = (): AppState['blender'] => {
    const info = local?.blender ?? null;
    return {
      found: info !== null,
      path: info?.path ?? null,
      version: info?.version ?? null,
      hint:
        info !== null
          ? null
          : 'Blender was not found on this computer. Install it from https://www.blender.org/download/ (on Debian or Ubuntu: `sudo apt install blender`), or set BLENDER_PATH to the blender executable, then restart Renderdrop. You can also add a cloud profile in Settings.',
    };
  };

  const profileView = async (profile: Profile): Promise<ProfileView> => {
    if (profile.id === THIS_COMPUTER_PROFILE_ID) {
      return { ...profile, hasKey: local !== null, keyStorage: local ? (local.keyStorage === 'store' ? options.keyStore : 'memory') : 'none' };
    }
    if (env.RENDERDROP_API_KEY?.trim()) return { ...profile, hasKey: true, keyStorage: 'env' };
    const key = await secrets.get(profile.id).catch(() => null);
    return { ...profile, hasKey: key !== null, keyStorage: key !== null ? options.keyStore : 'none' };
  };

  let session: ProfileSession | null = null;

  const state = async (): Promise<AppState> => {
    const s = store.get();
    const profiles = await Promise.all(s.profiles.map(profileView));
    return {
      version: RENDERDROP_VERSION,
      shell: options.shell,
      firstRun: !hasSubmitted && (session?.queue.size ?? 0) === 0 && s.profiles.every((p) => p.kind === 'local'),
      profiles,
      activeProfileId: s.activeProfileId,
      settings: settingsView(),
      connection: session?.connection ?? { state: 'no-profile', message: 'Choose a profile in Settings.' },
      blender: blenderStatus(),
      keyStore: options.keyStore,
      ...(options.keyStoreNote ? { keyStoreNote: options.keyStoreNote } : {}),
      configDir,
    };
  };
  const announce = async () => events.emit('app.changed', await state());

  const clientFor = async (profile: Profile): Promise<{ client: ApiClient | null; blocked: ConnectionState | null }> => {
    const onRetry = (info: { reason: 'rate-limited' | 'server-error' | 'network'; delayMs: number }) => session?.onRetry(info.reason, info.delayMs);
    if (profile.id === THIS_COMPUTER_PROFILE_ID) {
      if (!local) {
        return { client: null, blocked: { state: 'unreachable', message: `The render node on this computer did not start: ${localError ?? 'unknown error'}`, retryInSeconds: 0, since: new Date(clock.now()).toISOString() } };
      }
      const client = new ApiClient({ baseUrl: local.url, apiKey: local.apiKey, onRetry });
      const blocked: ConnectionState | null = local.blender ? null : { state: 'blender-missing', message: blenderStatus().hint! };
      return { client, blocked };
    }
    const connection = await resolveConnection({ ...store.get(), activeProfileId: profile.id }, secrets, env);
    if (!connection.apiKey) return { client: null, blocked: { state: 'no-key', message: `No API key is stored for "${profile.name}". Add one in Settings > Profiles.` } };
    return { client: new ApiClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, onRetry }), blocked: null };
  };

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
      const { client, blocked } = await clientFor(profile);
      session = new ProfileSession({
        profile,
        client,
        blocked,
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
  const profileById = (id: string): Profile => {
    const profile = store.get().profiles.find((p) => p.id === id);
    if (!profile) throw new ConfigError('That profile no longer exists.', { code: 'no-profile' });
    return profile;
  };
  const refuseLocal = (id: string, what: string) => {
    if (id === THIS_COMPUTER_PROFILE_ID) throw new ConfigError(`"${LOCAL_PROFILE_NAME}" is managed by Renderdrop; its ${what} cannot be changed.`, { code: 'local-profile' });
  };
  const restartIfActive = async (id: string) => {
    if (store.get().activeProfileId === id) await openSession();
  };

  const testConnection = async (baseUrl: string, apiKey: string): Promise<ConnectionTest> => {
    const client = new ApiClient({ baseUrl, apiKey, retry: { rateLimitRetries: 0, transientRetries: 0 }, timeoutMs: 10_000 });
    try {
      const list = await client.listJobs({ page: 1, pageSize: 1 });
      return { ok: true, message: `Connected: the key works and sees ${list.pagination.total} job(s).`, jobCount: list.pagination.total, status: 200 };
    } catch (error) {
      const serialized = serializeError(error);
      const message = error instanceof AuthError ? 'The server rejected this API key. Check it and enter it again.' : serialized.message;
      return { ok: false, message, jobCount: null, status: serialized.status ?? null };
    }
  };

  const handlers: ContractHandlers = {
    'app.getState': () => state(),
    'app.runDoctor': async () => {
      const report = await (options.doctor ?? (() => runDoctor({ env, platform: process.platform })))();
      doctor = toDoctorView(report, new Date(clock.now()));
      return doctor;
    },

    'profiles.add': async ({ name, baseUrl, apiKey }) => {
      const profile = store.addProfile({ name, baseUrl: baseUrl.replace(/\/+$/, ''), kind: 'cloud' });
      if (apiKey) await secrets.set(profile.id, apiKey);
      await announce();
      return profileView(profile);
    },
    'profiles.update': async ({ profileId, name, baseUrl }) => {
      refuseLocal(profileId, 'address');
      const before = profileById(profileId);
      const profile = store.updateProfile(profileId, { ...(name ? { name } : {}), ...(baseUrl ? { baseUrl: baseUrl.replace(/\/+$/, '') } : {}) });
      if (!sameServer(before.baseUrl, profile.baseUrl)) await secrets.delete(profileId).catch(() => false);
      await restartIfActive(profileId);
      await announce();
      return profileView(profile);
    },
    'profiles.remove': async ({ profileId }) => {
      refuseLocal(profileId, 'existence');
      profileById(profileId);
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
      refuseLocal(profileId, 'key');
      const profile = profileById(profileId);
      await secrets.set(profileId, apiKey);
      await restartIfActive(profileId);
      await announce();
      return profileView(profile);
    },
    'profiles.clearKey': async ({ profileId }) => {
      refuseLocal(profileId, 'key');
      const profile = profileById(profileId);
      await secrets.delete(profileId);
      await restartIfActive(profileId);
      await announce();
      return profileView(profile);
    },
    'profiles.hasKey': async ({ profileId }) => (await profileView(profileById(profileId))).hasKey,
    'profiles.testConnection': async ({ profileId, baseUrl, apiKey }) => {
      if (profileId === THIS_COMPUTER_PROFILE_ID) {
        if (!local) return { ok: false, message: `The render node on this computer did not start: ${localError ?? 'unknown error'}`, jobCount: null, status: null };
        return testConnection(local.url, local.apiKey);
      }
      const profile = profileId ? profileById(profileId) : null;
      const url = baseUrl ?? profile?.baseUrl;
      if (!url) throw new ConfigError('Enter the server address to test.', { code: 'no-base-url' });
      const storedKeyFits = profile !== null && (baseUrl === undefined || sameServer(baseUrl, profile.baseUrl));
      if (!apiKey && profile && !storedKeyFits) {
        return { ok: false, message: `Enter the API key for ${url} to test it; the key stored for "${profile.name}" is only sent to ${profile.baseUrl}.`, jobCount: null, status: null };
      }
      const key = apiKey ?? (profile && storedKeyFits ? await secrets.get(profile.id) : null);
      if (!key) return { ok: false, message: 'Enter an API key to test.', jobCount: null, status: null };
      return testConnection(url.replace(/\/+$/, ''), key);
    },

    'settings.get': async () => settingsView(),
    'settings.update': async ({ downloadDir, autoDownload, notifications, theme }) => {
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
        if (current.profile.id === THIS_COMPUTER_PROFILE_ID && local && !local.blender) {
          throw new ConfigError(blenderStatus().hint!, { code: 'blender-missing' });
        }
        submitted = await current.submit(ready, renderConfig);
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
    'submissions.review': async ({ submissionId }) => (await active()).review(submissionId),
    'submissions.startRender': async ({ submissionId, renderConfig }) => (await active()).startRender(submissionId, renderConfig),
    'submissions.discard': async ({ submissionId }) => (await active()).discard(submissionId),
    'submissions.retry': async ({ submissionId }) => (await active()).retry(submissionId),
    'submissions.dismiss': async ({ submissionId }) => (await active()).dismiss(submissionId),

    'scenes.lastSettings': async ({ fileName }) => prefs.lastSettings(fileName),

    'jobs.list': async (query) => (await active()).jobs(query),
    'jobs.get': async ({ jobId }) => (await active()).detail(jobId),
    'jobs.preview': async ({ jobId }) => (await active()).preview(jobId),
    'jobs.refresh': async () => (await active()).reload(),
    'jobs.cancel': async ({ jobId }) => (await active()).cancel(jobId),
    'jobs.download': async ({ jobId }) => (await active()).download(jobId),
    'jobs.openFolder': async ({ jobId }) => {
      const dir = await (await active()).ensureJobDir(jobId);
      await openPath(dir);
      return dir;
    },
    'jobs.submitAgain': async ({ jobId }) => (await active()).submitAgain(jobId),
  };

  return {
    handlers,
    subscribe: (listener) => events.subscribe(listener),
    stageUpload: async (fileName, source) => {
      const { token, size } = await staged.stage(fileName, source);
      return { token, size };
    },
    get localNodeUrl() {
      return local?.url ?? null;
    },
    ready: async () => {
      await switching;
      await session?.whenLoaded();
    },
    close: async () => {
      await switching;
      await session?.close();
      session = null;
      await local?.close();
    },
  };
}

/** Whether two server addresses name the same API (scheme, host, port and path; trailing slashes and letter case of the host aside). */
function sameServer(a: string, b: string): boolean {
  const normalise = (value: string): string | null => {
    try {
      const url = new URL(value.trim());
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}${url.search}`;
    } catch {
      return null;
    }
  };
  const left = normalise(a);
  return left !== null && left === normalise(b);
}

/** Makes sure the profile "This computer" exists (pointing at the node's current address) and something is active. */
function ensureLocalProfile(store: SettingsStore, local: LocalNode | null): void {
  const settings = store.get();
  const existing = settings.profiles.find((p) => p.id === THIS_COMPUTER_PROFILE_ID);
  const baseUrl = local?.url ?? existing?.baseUrl ?? 'http://127.0.0.1:8787';
  if (!existing) {
    const name = settings.profiles.some((p) => p.name.toLowerCase() === LOCAL_PROFILE_NAME.toLowerCase()) ? `${LOCAL_PROFILE_NAME} (app)` : LOCAL_PROFILE_NAME;
    store.set({ profiles: [{ id: THIS_COMPUTER_PROFILE_ID, name, baseUrl, kind: 'local' }, ...settings.profiles] });
  } else if (existing.baseUrl !== baseUrl) {
    store.updateProfile(THIS_COMPUTER_PROFILE_ID, { baseUrl });
  }
  if (!store.activeProfile()) store.set({ activeProfileId: THIS_COMPUTER_PROFILE_ID });
}
