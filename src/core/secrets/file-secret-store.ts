import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from '../errors';
import { writeFileAtomic } from '../util';
import type { SecretStore } from './secret-store';

/** The file of API keys in the settings folder, used only when the artist chose it (no keychain answers). */
export const KEY_FILE_NAME = 'keys.json';

/** Where the key file of a settings folder is. */
export function keyFilePath(configDir: string): string {
  return join(configDir, KEY_FILE_NAME);
}

/** What the file store means, in one sentence, for the places that offer it. */
export const KEY_FILE_MEANING = 'The key is written unencrypted to keys.json in the settings folder, which only your user account can read; anyone who can read your files (or a backup of them) can read it.';

/**
 * API keys in one JSON file, readable and writable by this user only (0600), as `gh` keeps its token
 * when asked for insecure storage: the key is not encrypted. A file others can read is refused, not used.
 */
export class FileSecretStore implements SecretStore {
  readonly path: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  async get(profileId: string): Promise<string | null> {
    return (await this.#read())[profileId] ?? null;
  }

  async set(profileId: string, key: string): Promise<void> {
    await this.#update((keys) => ({ ...keys, [profileId]: key }));
  }

  async delete(profileId: string): Promise<boolean> {
    if (!(profileId in (await this.#read()))) return false;
    let removed = false;
    await this.#update((keys) => {
      removed = profileId in keys;
      const { [profileId]: _gone, ...rest } = keys;
      return rest;
    });
    return removed;
  }

  async isAvailable(): Promise<boolean> {
    return true;
  }

  /** Whether the file holds a key for the profile (a damaged or exposed file counts as none). */
  async has(profileId: string): Promise<boolean> {
    return (await this.#read().catch(() => ({}) as Record<string, string>))[profileId] !== undefined;
  }

  async #read(): Promise<Record<string, string>> {
    let text: string;
    try {
      if (process.platform !== 'win32') {
        const info = await stat(this.path);
        if ((info.mode & 0o077) !== 0 || (process.getuid && info.uid !== process.getuid())) {
          throw new ConfigError(`${this.path} can be read by other users or belongs to another one, so its keys are not used. Make it yours and private (chmod 600), or delete it and log in again.`, {
            code: 'key-file-exposed',
          });
        }
      }
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = null;
    }
    const keys = (raw as { version?: unknown; keys?: unknown } | null)?.keys;
    if ((raw as { version?: unknown } | null)?.version !== 1 || !keys || typeof keys !== 'object' || Object.values(keys).some((v) => typeof v !== 'string')) {
      throw new ConfigError(`${this.path} is damaged. Delete it and log in again.`, { code: 'key-file-damaged' });
    }
    return { ...(keys as Record<string, string>) };
  }

  #update(change: (keys: Record<string, string>) => Record<string, string>): Promise<void> {
    const next = this.#queue.then(async () => {
      const keys = change(await this.#read());
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.path, `${JSON.stringify({ version: 1, keys }, null, 2)}\n`, 0o600);
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
