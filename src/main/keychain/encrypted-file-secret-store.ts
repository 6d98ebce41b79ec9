import { readFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../../core/errors';
import { writeFileAtomic } from '../../core/util';
import type { SecretStore } from '../../core/secrets';

/** Encrypts and decrypts text (Electron's safeStorage in the app). */
export interface StringCipher {
  encrypt(text: string): Promise<Buffer>;
  /** The text, and whether it should be encrypted again (the key was rotated). */
  decrypt(data: Buffer): Promise<{ text: string; reEncrypt: boolean }>;
}

const fileSchema = z.object({ version: z.literal(1), keys: z.record(z.string(), z.string()) });

/**
 * API keys in one JSON file (mode 0600), each encrypted by a {@link StringCipher}: the desktop app's
 * fallback when there is no OS keychain. The file never holds a key in plain text.
 */
export class EncryptedFileSecretStore implements SecretStore {
  readonly path: string;
  readonly #cipher: StringCipher;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string, cipher: StringCipher) {
    this.path = path;
    this.#cipher = cipher;
  }

  async get(profileId: string): Promise<string | null> {
    const sealed = (await this.#read())[profileId];
    if (sealed === undefined) return null;
    let opened: { text: string; reEncrypt: boolean };
    try {
      opened = await this.#cipher.decrypt(Buffer.from(sealed, 'base64'));
    } catch (error) {
      throw new ConfigError(`The stored API key could not be decrypted (${(error as Error).message}). Enter it again in Settings > Profiles.`, { code: 'key-unreadable' });
    }
    if (opened.reEncrypt) await this.set(profileId, opened.text).catch(() => undefined);
    return opened.text;
  }

  async set(profileId: string, key: string): Promise<void> {
    const sealed = (await this.#cipher.encrypt(key)).toString('base64');
    await this.#update((keys) => ({ ...keys, [profileId]: sealed }));
  }

  async delete(profileId: string): Promise<boolean> {
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

  async #read(): Promise<Record<string, string>> {
    let text: string;
    try {
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
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) throw new ConfigError(`${this.path} is damaged. Delete it and enter the API keys again.`, { code: 'key-file-damaged' });
    return parsed.data.keys;
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
