import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ManifestChunk } from '../../shared/api';

/** Default size of a worker's chunk cache. */
export const DEFAULT_WORKER_CHUNK_BYTES = 16 * 1024 ** 3;
/** Largest range asked of the node in one request. */
const RANGE_BYTES = 16 * 1024 * 1024;

/** How a scene's chunks reach the worker: the node's list of them (null: none kept) and byte ranges of the scene. */
export interface SceneChunkSource {
  chunks(): Promise<ManifestChunk[] | null>;
  range(offset: number, length: number): Promise<Buffer>;
}

/** What fetching a scene in chunks took: the bytes asked of the node, and those already in the cache. */
export interface ChunkFetch {
  bytesFetched: number;
  bytesReused: number;
}

/**
 * A worker's content-addressed chunks (`<dir>/<sha256>`), kept between scenes: a worker that rendered
 * yesterday's version of a scene fetches only the chunks that changed, as byte ranges of the scene on
 * the node, each checked against the hash the node's list names (the whole file is then checked against
 * the scene's SHA-256 the chunk was signed with). Oldest-used chunks go once the cache passes its size.
 * Each chunk is written aside and renamed into place, so workers sharing the cache never read half of one.
 */
export class WorkerChunks {
  constructor(
    private readonly dir: string,
    private readonly maxBytes = DEFAULT_WORKER_CHUNK_BYTES,
  ) {}

  /**
   * Writes the scene described by `chunks` into `write`, in order, from cached chunks and ranges of the
   * scene for the rest (adjacent missing chunks asked for together). A range whose chunk does not have
   * its hash is refused.
   */
  async assemble(chunks: readonly ManifestChunk[], source: SceneChunkSource, write: (bytes: Buffer) => Promise<void>): Promise<ChunkFetch> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const missing: { chunk: ManifestChunk; offset: number }[] = [];
    const have = new Set<string>();
    let offset = 0;
    let bytesReused = 0;
    for (const chunk of chunks) {
      if (have.has(chunk.hash) || (await this.#present(chunk))) {
        have.add(chunk.hash);
        bytesReused += chunk.size;
      } else if (!missing.some((m) => m.chunk.hash === chunk.hash)) missing.push({ chunk, offset });
      else bytesReused += chunk.size;
      offset += chunk.size;
    }
    let bytesFetched = 0;
    for (let i = 0; i < missing.length; ) {
      let j = i + 1;
      let length = missing[i]!.chunk.size;
      while (j < missing.length && missing[j]!.offset === missing[j - 1]!.offset + missing[j - 1]!.chunk.size && length + missing[j]!.chunk.size <= RANGE_BYTES) {
        length += missing[j]!.chunk.size;
        j++;
      }
      const bytes = await source.range(missing[i]!.offset, length);
      if (bytes.length !== length) throw new Error(`The node sent ${bytes.length} bytes of the scene where ${length} were asked for.`);
      bytesFetched += length;
      let at = 0;
      for (const { chunk } of missing.slice(i, j)) {
        const part = bytes.subarray(at, at + chunk.size);
        at += chunk.size;
        if (createHash('sha256').update(part).digest('hex') !== chunk.hash) throw new Error(`A part of the scene from the node does not have the hash its list names (${chunk.hash.slice(0, 12)}…).`);
        const temp = join(this.dir, `.${chunk.hash}-${randomBytes(4).toString('hex')}`);
        await writeFile(temp, part, { mode: 0o600 });
        await rename(temp, join(this.dir, chunk.hash));
      }
      i = j;
    }
    for (const chunk of chunks) {
      const bytes = await this.#read(chunk);
      if (bytes === null) throw new Error(`A chunk of the scene went missing from the worker's cache (${chunk.hash.slice(0, 12)}…); the scene is fetched again next time.`);
      await write(bytes);
    }
    await this.prune();
    return { bytesFetched, bytesReused };
  }

  /** Removes the chunks used longest ago while the cache is over its size. */
  async prune(): Promise<void> {
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter((name) => /^[0-9a-f]{64}$/.test(name));
    const files = await Promise.all(names.map(async (name) => ({ name, info: await stat(join(this.dir, name)).catch(() => null) })));
    let total = files.reduce((sum, f) => sum + (f.info?.size ?? 0), 0);
    if (total <= this.maxBytes) return;
    files.sort((a, b) => (a.info?.mtimeMs ?? 0) - (b.info?.mtimeMs ?? 0));
    for (const file of files) {
      if (total <= this.maxBytes * 0.9) break;
      await rm(join(this.dir, file.name), { force: true });
      total -= file.info?.size ?? 0;
    }
  }

  /** Whether a chunk is cached whole and right; a damaged one is removed (and fetched again). */
  async #present(chunk: ManifestChunk): Promise<boolean> {
    return (await this.#read(chunk)) !== null;
  }

  async #read(chunk: ManifestChunk): Promise<Buffer | null> {
    const path = join(this.dir, chunk.hash);
    const bytes = await readFile(path).catch(() => null);
    if (bytes === null) return null;
    if (bytes.length !== chunk.size || createHash('sha256').update(bytes).digest('hex') !== chunk.hash) {
      await rm(path, { force: true });
      return null;
    }
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined);
    return bytes;
  }
}
