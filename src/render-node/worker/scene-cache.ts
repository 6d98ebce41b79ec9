import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { type ChunkData, isPlainName } from '../distributed';
import { entryPath } from '../../shared/zip';
import { chooseScene, extractZip, severScene } from '../scene';
import { type ChunkFetch, type SceneChunkSource, WorkerChunks } from './chunk-cache';

/**
 * Marks a cached scene as complete, its outside paths severed. Named after what it promises: a scene
 * cached before workers severed paths has no such mark and is fetched again.
 */
const READY = '.severed';
/** Scenes kept besides the ones in use: the most recently used first. */
const KEEP_SCENES = 8;
/** A scene used this recently is never removed (another worker sharing the cache may be on it). */
const IN_USE_MS = 3600_000;

type Fetch = (target: string, check: () => Transform) => Promise<void>;

/**
 * A worker's scenes, by the SHA-256 of the file the artist uploaded: each is fetched once (and
 * checked against its hash), unpacked safely when it is a zip, its outside paths severed exactly as
 * the node severs them before any Blender opens it (a scene the reader cannot read is refused), and
 * reused by every chunk of the job and by any later job with the same file. Several workers may share
 * one cache folder.
 */
export class SceneCache {
  readonly #chunks: WorkerChunks;

  constructor(
    private readonly dir: string,
    chunkBytes?: number,
  ) {
    this.#chunks = new WorkerChunks(join(dir, '.chunks'), chunkBytes);
  }

  /**
   * The .blend to open for a chunk and the folder of its bundle, fetching the scene first when it is
   * not here yet: in chunks when `parts` says which (only those not cached are fetched), else whole.
   * `fetched` tells what a fetch in chunks took (null: the scene was here, or came whole).
   */
  async scene(scene: ChunkData['scene'], fetch: Fetch, parts?: SceneChunkSource): Promise<{ path: string; root: string; fetched: ChunkFetch | null }> {
    const root = join(this.dir, scene.sha256);
    const ready = join(root, READY);
    let fetched: ChunkFetch | null = null;
    if (!existsSync(ready)) await this.fetch(scene, root, parts ? await this.inChunks(scene, parts, fetch, (took) => (fetched = took)) : fetch);
    const now = new Date();
    await utimes(ready, now, now).catch(() => {});
    await this.prune(scene.sha256);
    const sceneRoot = join(root, 'scene');
    const path = join(sceneRoot, scene.kind === 'zip' ? bundlePath(scene.path) : blendName(scene.path));
    if (scene.kind !== 'zip' && !existsSync(path)) await sameSceneUnder(sceneRoot, path);
    return { path, root: sceneRoot, fetched };
  }

  /** A fetch that puts the scene together from cached chunks and ranges of it; `whole` when the node lists no chunks for it. */
  private async inChunks(scene: ChunkData['scene'], parts: SceneChunkSource, whole: Fetch, took: (fetch: ChunkFetch) => void): Promise<Fetch> {
    const chunks = await parts.chunks();
    if (chunks === null || chunks.reduce((sum, c) => sum + c.size, 0) !== scene.size) return whole;
    return async (target, check) => {
      const out = createWriteStream(target);
      const through = check();
      const written = pipeline(through, out);
      const write = (bytes: Buffer) => new Promise<void>((done, fail) => through.write(bytes, (err) => (err ? fail(err) : done())));
      try {
        took(await this.#chunks.assemble(chunks, parts, write));
      } catch (error) {
        through.destroy(error as Error);
        await written.catch(() => undefined);
        throw error;
      }
      through.end();
      await written;
    };
  }

  private async fetch(scene: ChunkData['scene'], root: string, fetch: Fetch): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const stage = join(this.dir, `.stage-${randomBytes(6).toString('hex')}`);
    const download = `${stage}.download`;
    try {
      const hash = createHash('sha256');
      let size = 0;
      await fetch(download, () =>
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            size += chunk.length;
            done(size > scene.size ? new Error(`The node sent more than the scene's ${scene.size} bytes.`) : null, chunk);
          },
        }),
      );
      const digest = hash.digest('hex');
      if (digest !== scene.sha256 || size !== scene.size) {
        throw new Error(`The scene from the node is not the one the chunk names (${size} bytes, SHA-256 ${digest.slice(0, 12)}…).`);
      }
      const sceneDir = join(stage, 'scene');
      await mkdir(sceneDir, { recursive: true });
      if (scene.kind === 'zip') chooseScene(await extractZip(download, sceneDir), scene.path);
      else await rename(download, join(sceneDir, blendName(scene.path)));
      const scenePath = join(sceneDir, scene.kind === 'zip' ? bundlePath(scene.path) : blendName(scene.path));
      await severScene(scenePath, sceneDir, stage);
      await writeFile(join(stage, READY), '');
      await place(stage, root);
    } finally {
      await rm(stage, { recursive: true, force: true });
      await rm(download, { force: true });
    }
  }

  /** Remove scenes beyond the most recent few that nothing used for an hour. */
  private async prune(keep: string): Promise<void> {
    const entries = (await readdir(this.dir).catch(() => [])).filter((name) => /^[0-9a-f]{64}$/.test(name) && name !== keep);
    const dated = await Promise.all(
      entries.map(async (name) => ({ name, used: (await stat(join(this.dir, name, READY)).catch(() => null))?.mtimeMs ?? 0 })),
    );
    dated.sort((a, b) => b.used - a.used);
    for (const old of dated.slice(KEEP_SCENES - 1)) {
      if (Date.now() - old.used > IN_USE_MS) await rm(join(this.dir, old.name), { recursive: true, force: true });
    }
  }
}

/** Move a fetched scene into place, unless another worker sharing the cache was first; replaces a scene cached unsevered. */
async function place(stage: string, root: string): Promise<void> {
  try {
    await rename(stage, root);
    return;
  } catch (err) {
    if (existsSync(join(root, READY))) return;
    if (!existsSync(root)) throw err;
  }
  await rm(root, { recursive: true, force: true });
  await rename(stage, root).catch((err: unknown) => {
    if (!existsSync(join(root, READY))) throw err;
  });
}

/** A .blend cached from an upload of the same bytes under another name: the same file, under the name this job gave it. */
async function sameSceneUnder(sceneRoot: string, path: string): Promise<void> {
  const cached = (await readdir(sceneRoot)).find((name) => name.toLowerCase().endsWith('.blend'));
  if (cached === undefined) throw new Error(`The cached scene in ${sceneRoot} holds no .blend; remove that folder and the scene is fetched again.`);
  await link(join(sceneRoot, cached), path).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') await copyFile(join(sceneRoot, cached), path);
  });
}

function bundlePath(path: string): string {
  const safe = entryPath(path);
  if (!safe.ok) throw new Error(`The chunk names a scene outside its bundle (${path}).`);
  return safe.path;
}

function blendName(name: string): string {
  return isPlainName(name) && name.toLowerCase().endsWith('.blend') ? name : 'scene.blend';
}
