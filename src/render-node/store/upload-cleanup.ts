import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Db } from './db';
import { parseRow } from './db-rows';
import type { Storage } from '../disk';

/** How old leftovers must be before {@link cleanUploads} removes them. */
export interface CleanUploadsOptions {
  /** Unused uploads are kept this long after they expired (default 24 h). */
  keepUnusedMs?: number;
  /**
   * Remove every partial file, however recent (at start-up, when no PUT can be running). Otherwise
   * only those untouched for a minute go, so a PUT still running keeps its file.
   */
  everyPartial?: boolean;
}

/**
 * Remove what interrupted or abandoned uploads left behind: partial files of PUTs that never
 * finished, and files of uploads that expired long ago without becoming a job.
 */
export async function cleanUploads(db: Db, storage: Storage, now: Date, options: CleanUploadsOptions = {}): Promise<{ partial: number; abandoned: number }> {
  const keepUnusedMs = options.keepUnusedMs ?? 24 * 3600_000;
  let partial = 0;
  for (const name of await readdir(storage.uploadsDir)) {
    if (!name.startsWith('.part-')) continue;
    const full = join(storage.uploadsDir, name);
    const st = await stat(full).catch(() => null);
    if (st && (options.everyPartial || now.getTime() - st.mtimeMs > 60_000)) {
      await rm(full, { force: true });
      partial++;
    }
  }
  const cutoff = new Date(now.getTime() - keepUnusedMs).toISOString();
  const stale = db
    .prepare('SELECT slug FROM uploads WHERE job_id IS NULL AND expires_at < ?')
    .all(cutoff)
    .map((row) => parseRow('uploads', z.object({ slug: z.string() }), row));
  for (const { slug } of stale) {
    await rm(storage.uploadPath(slug), { force: true });
    db.prepare('DELETE FROM uploads WHERE slug = ?').run(slug);
  }
  return { partial, abandoned: stale.length };
}
