import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/util';

/** The most hidden jobs remembered per profile; the oldest are forgotten past it. */
const MAX_HIDDEN_PER_PROFILE = 20_000;

const fileSchema = z.object({
  profiles: z.record(z.string(), z.array(z.string().min(1).max(200)).max(MAX_HIDDEN_PER_PROFILE)),
});

/**
 * The jobs the artist removed from the list, per profile, in `<config dir>/hidden-jobs.json`: a hide
 * on this computer only (the farm keeps the job). Without a folder it lives in memory.
 */
export class HiddenJobs {
  readonly path: string | null;
  readonly #byProfile = new Map<string, Set<string>>();
  #writing: Promise<void> = Promise.resolve();

  constructor(configDir: string | null) {
    this.path = configDir === null ? null : join(configDir, 'hidden-jobs.json');
    if (this.path === null) return;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      return;
    }
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) return;
    for (const [profileId, ids] of Object.entries(parsed.data.profiles)) this.#byProfile.set(profileId, new Set(ids));
  }

  /** Whether a job of a profile was removed from the list. */
  has(profileId: string, jobId: string): boolean {
    return this.#byProfile.get(profileId)?.has(jobId) ?? false;
  }

  /** Hides jobs of a profile and saves the list; answers how many were not hidden before. */
  async hide(profileId: string, jobIds: readonly string[]): Promise<number> {
    const ids = this.#byProfile.get(profileId) ?? new Set<string>();
    this.#byProfile.set(profileId, ids);
    let added = 0;
    for (const id of jobIds) {
      if (ids.has(id)) continue;
      ids.add(id);
      added++;
    }
    while (ids.size > MAX_HIDDEN_PER_PROFILE) ids.delete(ids.values().next().value!);
    if (added > 0) await this.#save();
    return added;
  }

  #save(): Promise<void> {
    const path = this.path;
    if (path === null) return Promise.resolve();
    const content = `${JSON.stringify({ profiles: Object.fromEntries([...this.#byProfile].map(([id, ids]) => [id, [...ids]])) })}\n`;
    const write = this.#writing
      .catch(() => undefined)
      .then(async () => {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        await writeFileAtomic(path, content);
      });
    this.#writing = write;
    return write;
  }
}
