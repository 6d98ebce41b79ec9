import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sanitizeSegment } from '../../core/download';
import { ConfigError, PreflightError } from '../../core/errors';
import { isFinished, type SubmissionRecord } from '../../core/journal';
import { MAX_UPLOAD_BYTES } from '../../shared/api';

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** How long, and for how many finished submissions, an uploaded copy is kept for "Submit again". */
export const STAGED_RETENTION = { days: 7, finishedSubmissions: 20 } as const;

/** Staged files younger than this are never swept: another window on the same folder may be about to submit them. */
const UNCLAIMED_GRACE_MS = 60 * 60 * 1000;

/**
 * The files a sweep keeps: every file an unfinished submission still has to send, and the files of
 * the 20 most recently updated finished submissions that have a job (so "Submit again" can send them)
 * and were last updated within 7 days. Every other staged file is no longer needed.
 */
export function stagedFilesToKeep(records: readonly SubmissionRecord[], now: number): Set<string> {
  const keep = new Set<string>();
  const finished: SubmissionRecord[] = [];
  for (const record of records) {
    if (!isFinished(record)) keep.add(record.file.path);
    else if (record.jobId !== null && now - Date.parse(record.updatedAt) <= STAGED_RETENTION.days * DAY_MS) finished.push(record);
  }
  finished.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  for (const record of finished.slice(0, STAGED_RETENTION.finishedSubmissions)) keep.add(record.file.path);
  return keep;
}

/**
 * Files the browser streamed to the host before submitting them (browser mode has no paths). Each
 * lands in `<dir>/<token>/<file name>` so preflight and the job see the original name; the token is
 * what `submissions.submit` takes. A file refused by submit is removed at once, one whose submission
 * is dismissed once no journal record refers to it, and at start a sweep removes what
 * `stagedFilesToKeep` does not keep.
 */
export class StagedFiles {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Writes `source` to a new staged file; rejects a stream longer than the API allows. */
  async stage(fileName: string, source: Readable, options: { maxBytes?: number } = {}): Promise<{ token: string; path: string; size: number }> {
    const name = sanitizeSegment(fileName.replace(/\\/g, '/').split('/').pop() ?? '') || 'scene';
    const token = randomBytes(16).toString('base64url');
    const folder = join(this.dir, token);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const path = join(folder, name);
    const limit = options.maxBytes ?? MAX_UPLOAD_BYTES;
    let size = 0;
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size >= limit) source.destroy(new PreflightError('too-large', `${name} is larger than the API accepts (5 GiB).`));
    });
    try {
      await pipeline(source, createWriteStream(path, { mode: 0o600 }));
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
    return { token, path, size };
  }

  /** The path of a staged file, or a ConfigError when the token is unknown. */
  async resolve(token: string): Promise<string> {
    if (!TOKEN.test(token)) throw new ConfigError('That uploaded file is unknown. Drop it again.', { code: 'unknown-upload' });
    const folder = join(this.dir, token);
    const names = await readdir(folder).catch((): string[] => []);
    const name = names[0];
    if (!name || !(await stat(join(folder, name)).catch(() => null))?.isFile()) {
      throw new ConfigError('That uploaded file is no longer on the host. Drop it again.', { code: 'unknown-upload' });
    }
    return join(folder, name);
  }

  /** Whether a path is a staged file (so it can be removed with its submission). */
  owns(path: string): boolean {
    return path.startsWith(this.dir + '/') || path.startsWith(this.dir + '\\');
  }

  /** Removes a staged file and its folder. */
  async remove(path: string): Promise<void> {
    if (!this.owns(path)) return;
    await rm(join(path, '..'), { recursive: true, force: true });
  }

  /**
   * Removes every staged file whose path is not in `keep`, except those written within the last hour;
   * answers the tokens removed.
   */
  async sweep(keep: ReadonlySet<string>, now: number): Promise<string[]> {
    const kept = new Set([...keep].filter((path) => this.owns(path)).map((path) => relative(this.dir, path).split(sep)[0]));
    const names = await readdir(this.dir).catch((): string[] => []);
    const removed: string[] = [];
    for (const name of names) {
      if (kept.has(name)) continue;
      const folder = join(this.dir, name);
      if (now - (await this.#lastWritten(folder)) < UNCLAIMED_GRACE_MS) continue;
      await rm(folder, { recursive: true, force: true });
      removed.push(name);
    }
    return removed;
  }

  async #lastWritten(folder: string): Promise<number> {
    const info = await stat(folder).catch(() => null);
    if (!info) return 0;
    if (!info.isDirectory()) return info.mtimeMs;
    const names = await readdir(folder).catch((): string[] => []);
    const inside = await Promise.all(names.map((name) => stat(join(folder, name)).then((s) => s.mtimeMs, () => 0)));
    return Math.max(info.mtimeMs, ...inside);
  }
}
