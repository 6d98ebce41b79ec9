import { ApiClient, type RetryInfo } from '../../core/api';
import { ConfigError } from '../../core/errors';
import type { SettingsStore } from '../../core/settings';
import type { Clock } from '../../core/util';
import { THIS_COMPUTER_PROFILE_ID, type AppState, type BlenderStatus, type ConnectionTest, type ProfileView } from '../../shared/contract';
import type { LocalNode } from './local-node';
import { testConnectionTo, untested, type ProfileBackend, type ProfileConnection } from './profile-backend';

/** The name of the profile whose server is the render node inside the app. */
export const LOCAL_PROFILE_NAME = 'This computer';

const BLENDER_HINT =
  'Blender was not found on this computer. Install it from https://www.blender.org/download/ (on Debian or Ubuntu: `sudo apt install blender`), or set BLENDER_PATH to the blender executable, then restart Renderdrop. You can also add a cloud profile in Settings.';

/**
 * "This computer": the render node the app runs, with the key the app made for it. Renderdrop
 * manages its address and key; it cannot render without Blender.
 */
export class LocalProfile implements ProfileBackend {
  readonly #node: LocalNode | null;
  readonly #startError: string | null;
  readonly #keyStore: AppState['keyStore'];
  readonly #clock: Clock;

  constructor(options: { node: LocalNode | null; startError: string | null; keyStore: AppState['keyStore']; clock: Clock }) {
    this.#node = options.node;
    this.#startError = options.startError;
    this.#keyStore = options.keyStore;
    this.#clock = options.clock;
  }

  /** The node's Blender, with how to get one when there is none. */
  blender(): BlenderStatus {
    const info = this.#node?.blender ?? null;
    return { found: info !== null, path: info?.path ?? null, version: info?.version ?? null, hint: info !== null ? null : BLENDER_HINT };
  }

  async keyView(): Promise<Pick<ProfileView, 'hasKey' | 'keyStorage'>> {
    const node = this.#node;
    if (!node) return { hasKey: false, keyStorage: 'none' };
    return { hasKey: true, keyStorage: node.keyStorage === 'store' ? this.#keyStore : 'memory' };
  }

  async connect(onRetry: (info: RetryInfo) => void): Promise<ProfileConnection> {
    const node = this.#node;
    if (!node) {
      return { client: null, blocked: { state: 'unreachable', message: this.#notStarted(), retryInSeconds: 0, since: new Date(this.#clock.now()).toISOString() } };
    }
    const client = new ApiClient({ baseUrl: node.url, apiKey: node.apiKey, onRetry });
    return { client, blocked: node.blender ? null : { state: 'blender-missing', message: BLENDER_HINT } };
  }

  refuseChange(what: 'address' | 'key' | 'existence'): void {
    throw new ConfigError(`"${LOCAL_PROFILE_NAME}" is managed by Renderdrop; its ${what} cannot be changed.`, { code: 'local-profile' });
  }

  submitRefusal(): ConfigError | null {
    return this.#node && !this.#node.blender ? new ConfigError(BLENDER_HINT, { code: 'blender-missing' }) : null;
  }

  async testConnection(): Promise<ConnectionTest> {
    const node = this.#node;
    return node ? testConnectionTo(node.url, node.apiKey) : untested(this.#notStarted());
  }

  #notStarted(): string {
    return `The render node on this computer did not start: ${this.#startError ?? 'unknown error'}`;
  }
}

/** Makes sure the profile "This computer" exists (pointing at the node's current address) and something is active. */
export function ensureLocalProfile(store: SettingsStore, node: LocalNode | null): void {
  const settings = store.get();
  const existing = settings.profiles.find((p) => p.id === THIS_COMPUTER_PROFILE_ID);
  const baseUrl = node?.url ?? existing?.baseUrl ?? 'http://127.0.0.1:8787';
  if (!existing) {
    const name = settings.profiles.some((p) => p.name.toLowerCase() === LOCAL_PROFILE_NAME.toLowerCase()) ? `${LOCAL_PROFILE_NAME} (app)` : LOCAL_PROFILE_NAME;
    store.set({ profiles: [{ id: THIS_COMPUTER_PROFILE_ID, name, baseUrl, kind: 'local' }, ...settings.profiles] });
  } else if (existing.baseUrl !== baseUrl) {
    store.updateProfile(THIS_COMPUTER_PROFILE_ID, { baseUrl });
  }
  if (!store.activeProfile()) store.set({ activeProfileId: THIS_COMPUTER_PROFILE_ID });
}
