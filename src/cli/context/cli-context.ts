import { ApiClient, type RetryInfo } from '../../core/api';
import { ConfigError } from '../../core/errors';
import type { SubmissionJournal, SubmissionRecord } from '../../core/journal';
import { FileSecretStore, KeyringSecretStore, keyFilePath, type SecretStore, StoredKeys, localNodeDataDir, readLocalClientFile, THIS_COMPUTER_PORT } from '../../core/secrets';
import { requireApiKey, resolveConnection, type Connection, SettingsStore } from '../../core/settings';
import { sameServer, trimBaseUrl, THIS_COMPUTER_PROFILE_ID, type Profile } from '../../shared/settings';
import { formatDuration } from '../../shared/text';
import { type CliIo, type CliPrompt, type Interrupt, safeText } from '../terminal';
import type { CliDeps } from '../cli-deps';

/** The profile created when there is none: the render node on this computer. */
export const DEFAULT_PROFILE = {
  id: THIS_COMPUTER_PROFILE_ID,
  name: 'This computer',
  baseUrl: `http://127.0.0.1:${THIS_COMPUTER_PORT}`,
  kind: 'local',
} as const satisfies Profile;

/**
 * What commands share: settings (with the default profile when none exists), the submission journal
 * in the same folder, the keychain, the connection of the active profile (environment overrides
 * applied) and API clients. Built lazily, so a command touches only what it uses.
 */
export class CliContext {
  readonly io: CliIo;
  readonly prompt: CliPrompt;
  /** Told about waits before a retry (rate limits, server errors); replaced by commands with a display. */
  notice: (message: string) => void;
  #settings: SettingsStore | null = null;
  #journal: SubmissionJournal | null = null;
  #secrets: StoredKeys | null = null;
  readonly #keychain: SecretStore;
  #connection: Promise<Connection> | null = null;
  readonly #clients = new Map<string, ApiClient>();

  readonly #deps: Pick<CliDeps, 'listenForInterrupt'>;

  constructor(deps: Pick<CliDeps, 'io' | 'prompt' | 'secrets' | 'listenForInterrupt'>) {
    this.io = deps.io;
    this.prompt = deps.prompt;
    this.#keychain = deps.secrets ?? new KeyringSecretStore();
    this.#deps = deps;
    this.notice = (message) => void deps.io.stderr.write(`${safeText(message, { multiline: true })}\n`);
  }

  /** An abort signal for Ctrl-C and SIGTERM while the command runs; dispose it when done. */
  listenForInterrupt(): Interrupt {
    return this.#deps.listenForInterrupt();
  }

  /** The API keys: the system keychain, and the key file in the settings folder where a key was put there by choice. */
  get secrets(): StoredKeys {
    this.#secrets ??= new StoredKeys({ keychain: this.#keychain, file: new FileSecretStore(keyFilePath(this.settings().dir)) });
    return this.#secrets;
  }

  /** The settings store, with the default profile added when there is none. */
  settings(): SettingsStore {
    if (!this.#settings) {
      this.#settings = new SettingsStore({ env: this.io.env });
      if (this.#settings.get().profiles.length === 0) this.#settings.addProfile({ ...DEFAULT_PROFILE });
    }
    return this.#settings;
  }

  /** The submission journal, beside the settings (loaded on first use: most commands never need it). */
  async journal(): Promise<SubmissionJournal> {
    if (!this.#journal) {
      const { SubmissionJournal } = await import('../../core/journal');
      this.#journal ??= new SubmissionJournal({ dataDir: this.settings().dir });
    }
    return this.#journal;
  }

  /** The active connection: the active profile with RENDERDROP_BASE_URL / RENDERDROP_API_KEY applied. */
  connection(): Promise<Connection> {
    const settings = this.settings();
    this.#connection ??= (async () => {
      const client = await readLocalClientFile(localNodeDataDir(settings.dir));
      return resolveConnection(settings.get(), this.secrets, this.io.env, { localNode: { client, defaultUrl: DEFAULT_PROFILE.baseUrl } });
    })();
    return this.#connection;
  }

  /** An API client for the active connection; a ConfigError says how to set a key when there is none. */
  async client(): Promise<ApiClient> {
    const connection = await this.connection();
    if (connection.profileId === THIS_COMPUTER_PROFILE_ID && connection.apiKey === null && connection.baseUrlSource === 'profile') {
      throw new ConfigError(
        `The Renderdrop app is not running, and no key is stored for a render node at ${connection.baseUrl}. Start the Renderdrop app (its "This computer" needs no key), or start a node with \`renderdrop node serve\` and store one of its keys with \`renderdrop login\`.`,
        { code: 'no-local-node' },
      );
    }
    return this.#clientFor(connection.baseUrl, requireApiKey(connection));
  }

  /**
   * An API client for the server a journal record was sent to: the active connection when it is that
   * server, else the stored key of a profile for that server.
   */
  async clientForRecord(record: Pick<SubmissionRecord, 'baseUrl' | 'profileId'>): Promise<ApiClient> {
    const baseUrl = trimBaseUrl(record.baseUrl);
    const connection = await this.connection();
    if (sameServer(connection.baseUrl, baseUrl) && connection.apiKey) return this.#clientFor(baseUrl, connection.apiKey);
    const profiles = this.settings().get().profiles.filter((p) => sameServer(p.baseUrl, baseUrl));
    profiles.sort((a, b) => Number(b.id === record.profileId) - Number(a.id === record.profileId));
    for (const profile of profiles) {
      const key = await this.secrets.get(profile.id);
      if (key) return this.#clientFor(baseUrl, key);
    }
    throw new ConfigError(
      `This submission was sent to ${baseUrl}, and no API key for that server is available. ` +
        'Log in to a profile for it (`renderdrop profile use <name>` then `renderdrop login`), or set RENDERDROP_BASE_URL and RENDERDROP_API_KEY.',
      { code: 'no-api-key' },
    );
  }

  #clientFor(baseUrl: string, apiKey: string): ApiClient {
    let client = this.#clients.get(baseUrl);
    if (!client) {
      client = new ApiClient({ baseUrl, apiKey, onRetry: (info) => this.reportRetry(info) });
      this.#clients.set(baseUrl, client);
    }
    return client;
  }

  /** Tells the person about a wait before a retry of at least a second (through `notice`). */
  reportRetry(info: RetryInfo): void {
    if (info.delayMs < 1_000) return;
    const why = info.reason === 'rate-limited' ? 'Rate limited by the server (429)' : info.reason === 'server-error' ? `The server failed (${info.status ?? '5xx'})` : 'The connection failed';
    this.notice(`${why}; retrying ${info.operation} in ${formatDuration(info.delayMs / 1000)}.`);
  }
}
