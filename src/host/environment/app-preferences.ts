import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/util';
import { renderConfigSchema, type RenderConfig } from '../../shared/api';
import { THEMES, type Theme } from '../../shared/contract';

const MAX_SCENES = 500;

/** The most renders "This computer" may run at once. */
export const MAX_RENDERS_AT_ONCE = 8;

/** The render settings of "This computer" as stored. */
export type StoredNodeSettings = z.infer<typeof nodeSettingsSchema>;

/** How "This computer" renders; absent: one render at a time on every core. */
const nodeSettingsSchema = z.object({
  renders: z.number().int().min(1).max(MAX_RENDERS_AT_ONCE),
  threads: z.number().int().min(1).max(1024).nullable(),
});

const preferencesSchema = z.object({
  theme: z.enum(THEMES).catch('dark'),
  thisComputer: nodeSettingsSchema.nullable().catch(null).default(null),
  /** Last render settings per scene file name (lower case), most recent last. */
  scenes: z.record(z.string(), z.unknown()).catch({}),
  /** The folder the file browser showed last. */
  lastFolder: z.string().min(1).max(4096).nullable().catch(null).default(null),
});

/**
 * What the app remembers besides the shared settings file: the theme and the last render settings of
 * each scene, in `<config dir>/app.json`, written atomically.
 */
export class AppPreferences {
  readonly path: string;
  #theme: Theme;
  #thisComputer: StoredNodeSettings | null;
  #scenes: Map<string, RenderConfig>;
  #lastFolder: string | null;
  #writing: Promise<void> = Promise.resolve();

  constructor(configDir: string) {
    this.path = join(configDir, 'app.json');
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      raw = {};
    }
    const parsed = preferencesSchema.safeParse(raw);
    const data = parsed.success ? parsed.data : { theme: 'dark' as const, scenes: {}, thisComputer: null, lastFolder: null };
    this.#theme = data.theme;
    this.#thisComputer = data.thisComputer;
    this.#lastFolder = data.lastFolder;
    this.#scenes = new Map();
    for (const [name, config] of Object.entries(data.scenes)) {
      const checked = renderConfigSchema.safeParse(config);
      if (checked.success) this.#scenes.set(name, checked.data);
    }
  }

  get theme(): Theme {
    return this.#theme;
  }

  async setTheme(theme: Theme): Promise<void> {
    this.#theme = theme;
    await this.#save();
  }

  /** How "This computer" renders, as last saved; null: its defaults. */
  get thisComputer(): StoredNodeSettings | null {
    return this.#thisComputer;
  }

  async setThisComputer(settings: StoredNodeSettings): Promise<void> {
    this.#thisComputer = settings;
    await this.#save();
  }

  /** The folder the file browser showed last, or null. */
  get lastFolder(): string | null {
    return this.#lastFolder;
  }

  async setLastFolder(path: string): Promise<void> {
    this.#lastFolder = path;
    await this.#save();
  }

  /** The settings last used to render this scene, or null. */
  lastSettings(fileName: string): RenderConfig | null {
    return this.#scenes.get(fileName.toLowerCase()) ?? null;
  }

  /** Remembers the settings a scene was rendered with (the oldest scenes are forgotten past 500). */
  async rememberSettings(fileName: string, config: RenderConfig): Promise<void> {
    const key = fileName.toLowerCase();
    this.#scenes.delete(key);
    this.#scenes.set(key, config);
    while (this.#scenes.size > MAX_SCENES) this.#scenes.delete(this.#scenes.keys().next().value!);
    await this.#save();
  }

  #save(): Promise<void> {
    const content = `${JSON.stringify({ theme: this.#theme, ...(this.#thisComputer ? { thisComputer: this.#thisComputer } : {}), ...(this.#lastFolder ? { lastFolder: this.#lastFolder } : {}), scenes: Object.fromEntries(this.#scenes) }, null, 2)}\n`;
    const write = this.#writing
      .catch(() => undefined)
      .then(async () => {
        await mkdir(join(this.path, '..'), { recursive: true, mode: 0o700 });
        await writeFileAtomic(this.path, content);
      });
    this.#writing = write;
    return write;
  }
}
