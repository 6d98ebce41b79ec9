import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sanitizeSegment } from '../core/download/safe-path';
import { ConfigError, PreflightError } from '../core/errors';
import { MAX_UPLOAD_BYTES } from '../shared/api/upload';

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Files the browser streamed to the host before submitting them (browser mode has no paths). Each
 * lands in `<dir>/<token>/<file name>` so preflight and the job see the original name; the token is
 * what `submissions.submit` takes.
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
    const names = await readdir(folder).catch(() => [] as string[]);
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
}
