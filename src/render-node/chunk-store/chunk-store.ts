import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FileType, ManifestChunk } from '../../shared/api';

/** Default size limit of a node's chunk store. */
export const DEFAULT_CHUNK_STORE_MAX_BYTES = 20 * 1024 ** 3;

/** A chunked upload as the store keeps it until it becomes an upload (a slug) or expires. */
export interface ChunkedUploadRecord {
  id: string;
  keyId: string;
  /** The user of the key, whom the rebuilt upload belongs to. */
  userId: string;
  fileName: string;
  fileType: FileType;
  size: number;
  sha256: string;
  chunks: ManifestChunk[];
  expiresAt: string;
  slug: string | null;
}

/** Where the store lives and how big it may grow. */
export interface ChunkStoreOptions {
  dir: string;
  /** Size past which the chunks used longest ago are removed (those of chunked uploads still open never are). */
  maxBytes: number;
  now: () => Date;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS chunks (hash TEXT PRIMARY KEY, size INTEGER NOT NULL, last_used INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_last_used ON chunks(last_used);
CREATE TABLE IF NOT EXISTS owners (hash TEXT NOT NULL, key_id TEXT NOT NULL, PRIMARY KEY (hash, key_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chunked_uploads (
  id TEXT PRIMARY KEY, key_id TEXT NOT NULL, user_id TEXT NOT NULL, file_name TEXT NOT NULL, file_type TEXT NOT NULL,
  size INTEGER NOT NULL, sha256 TEXT NOT NULL, chunks TEXT NOT NULL, expires_at TEXT NOT NULL, slug TEXT
);
`;

/**
 * The node's content-addressed chunk store: each chunk's bytes in `objects/<2 hex>/<sha256>` and an
 * index (SQLite, beside them) of sizes, last use, which keys sent each chunk, and the chunked uploads
 * under way. Everything is on disk, so it survives restarts.
 *
 * Storage is shared, ownership is per key: a chunk counts as present for a key only once that key has
 * sent its bytes, so no key learns from the answers what another key uploaded (it sends the bytes, which
 * the node checks against the hash, and only then stops being asked for them).
 */
export class ChunkStore {
  readonly #db: Database.Database;
  readonly #objects: string;
  readonly #working = new Map<string, Set<Promise<void>>>();

  constructor(private readonly options: ChunkStoreOptions) {
    this.#objects = join(options.dir, 'objects');
    for (let i = 0; i < 256; i++) mkdirSync(join(this.#objects, i.toString(16).padStart(2, '0')), { recursive: true, mode: 0o700 });
    this.#db = new Database(join(options.dir, 'index.sqlite'));
    this.#db.pragma('journal_mode = WAL');
    // The index may lose its last writes in a power cut, never its consistency: a chunk it forgets is
    // asked for again, and one it lists that is gone or damaged is found so when read.
    this.#db.pragma('synchronous = NORMAL');
    this.#db.exec(SCHEMA);
  }

  get dir(): string {
    return this.options.dir;
  }

  get maxBytes(): number {
    return this.options.maxBytes;
  }

  /** The hashes among `hashes` whose bytes `keyId` has sent and that are in the store. */
  ownedBy(keyId: string, hashes: Iterable<string>): Set<string> {
    const owned = new Set<string>();
    const query = this.#db.prepare('SELECT 1 FROM owners o JOIN chunks c ON c.hash = o.hash WHERE o.hash = ? AND o.key_id = ?').pluck();
    for (const hash of hashes) if (query.get(hash, keyId) !== undefined) owned.add(hash);
    return owned;
  }

  /** Stores chunks `keyId` sent, in one write of the index; the hash of the first whose bytes do not match it, else null. */
  putAll(keyId: string, chunks: readonly { hash: string; bytes: Buffer }[]): string | null {
    let refused: string | null = null;
    this.#db.transaction(() => {
      for (const chunk of chunks) {
        if (!this.put(keyId, chunk.hash, chunk.bytes)) {
          refused = chunk.hash;
          return;
        }
      }
    })();
    return refused;
  }

  /** Stores a chunk `keyId` sent, after checking its bytes against its hash; false when they do not match. */
  put(keyId: string, hash: string, bytes: Buffer): boolean {
    if (createHash('sha256').update(bytes).digest('hex') !== hash) return false;
    const s = this.#statements();
    // Written in place: a chunk cut short by a crash does not have its hash and is asked for again when read.
    if (s.known.get(hash) === undefined) writeFileSync(this.#pathOf(hash), bytes, { mode: 0o600 });
    this.#db.transaction(() => {
      s.upsert.run(hash, bytes.length, this.options.now().getTime());
      s.own.run(hash, keyId);
    })();
    return true;
  }

  /**
   * A chunk's bytes, checked against its hash; null when it is not in the store or was damaged on disk
   * (a damaged chunk is forgotten for every key, so it is asked for again).
   */
  read(hash: string): Buffer | null {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.#pathOf(hash));
    } catch {
      this.forget(hash);
      return null;
    }
    if (createHash('sha256').update(bytes).digest('hex') !== hash) {
      this.forget(hash);
      return null;
    }
    return bytes;
  }

  /** Marks chunks as used now (the last ones collected). */
  touch(hashes: Iterable<string>): void {
    const now = this.options.now().getTime();
    const update = this.#db.prepare('UPDATE chunks SET last_used = ? WHERE hash = ?');
    this.#db.transaction(() => {
      for (const hash of hashes) update.run(now, hash);
    })();
  }

  /** Removes a chunk: its bytes and every key's claim to it. */
  forget(hash: string): void {
    rmSync(this.#pathOf(hash), { force: true });
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM chunks WHERE hash = ?').run(hash);
      this.#db.prepare('DELETE FROM owners WHERE hash = ?').run(hash);
    })();
  }

  /** Records work that is storing chunks for `keyId` (a file received whole being taken apart) until it settles. */
  track(keyId: string, work: Promise<void>): void {
    const pending = this.#working.get(keyId) ?? new Set<Promise<void>>();
    pending.add(work);
    this.#working.set(keyId, pending);
    void work.finally(() => {
      pending.delete(work);
      if (pending.size === 0) this.#working.delete(keyId);
    });
  }

  /**
   * Settles once the chunks being stored for `keyId` are stored, or after `waitMs`: what the key has
   * sent is then known before the node answers what it still needs.
   */
  async settled(keyId: string, waitMs: number): Promise<void> {
    const pending = this.#working.get(keyId);
    if (!pending || pending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...pending]), new Promise<void>((done) => (timer = setTimeout(done, waitMs)))]);
    clearTimeout(timer);
  }

  /** Bytes of every chunk in the store. */
  totalBytes(): number {
    return Number(this.#db.prepare('SELECT COALESCE(SUM(size), 0) FROM chunks').pluck().get());
  }

  /**
   * When the store is over its limit, removes the chunks used longest ago until it is at 90 % of it,
   * never a chunk of a chunked upload still open (not yet rebuilt and not expired).
   */
  collect(): { removed: number; bytes: number } {
    let total = this.totalBytes();
    const removed = { removed: 0, bytes: 0 };
    if (total <= this.options.maxBytes) return removed;
    const target = Math.floor(this.options.maxBytes * 0.9);
    const pinned = this.#pinned();
    for (const row of this.#db.prepare('SELECT hash, size FROM chunks ORDER BY last_used ASC').all() as { hash: string; size: number }[]) {
      if (total <= target) break;
      if (pinned.has(row.hash)) continue;
      this.forget(row.hash);
      total -= row.size;
      removed.removed++;
      removed.bytes += row.size;
    }
    return removed;
  }

  /** Records a chunked upload (its chunks are then kept until it is rebuilt or expires). */
  createUpload(upload: Omit<ChunkedUploadRecord, 'slug'>): void {
    this.#db
      .prepare('INSERT INTO chunked_uploads (id, key_id, user_id, file_name, file_type, size, sha256, chunks, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(upload.id, upload.keyId, upload.userId, upload.fileName, upload.fileType, upload.size, upload.sha256, JSON.stringify(upload.chunks.map((c) => [c.hash, c.size])), upload.expiresAt);
  }

  getUpload(id: string): ChunkedUploadRecord | null {
    const row = this.#db.prepare('SELECT * FROM chunked_uploads WHERE id = ?').get(id) as
      | { id: string; key_id: string; user_id: string; file_name: string; file_type: FileType; size: number; sha256: string; chunks: string; expires_at: string; slug: string | null }
      | undefined;
    if (!row) return null;
    const chunks = (JSON.parse(row.chunks) as [string, number][]).map(([hash, size]) => ({ hash, size }));
    return { id: row.id, keyId: row.key_id, userId: row.user_id, fileName: row.file_name, fileType: row.file_type, size: row.size, sha256: row.sha256, chunks, expiresAt: row.expires_at, slug: row.slug };
  }

  /**
   * The chunks of the file that became upload `slug` through a chunked upload, in order (null: it did
   * not, that is forgotten, or the file arrived whole and the node has not cut it yet).
   */
  chunksOfUpload(slug: string): ManifestChunk[] | null {
    const chunks = this.#db.prepare('SELECT chunks FROM chunked_uploads WHERE slug = ?').pluck().get(slug) as string | undefined;
    const list = chunks === undefined ? [] : (JSON.parse(chunks) as [string, number][]).map(([hash, size]) => ({ hash, size }));
    return list.length === 0 ? null : list;
  }

  /** Records the chunks the node cut a chunked upload's file into, when it was described without them. */
  setChunks(id: string, chunks: readonly ManifestChunk[]): void {
    this.#db.prepare("UPDATE chunked_uploads SET chunks = ? WHERE id = ? AND chunks = '[]'").run(JSON.stringify(chunks.map((c) => [c.hash, c.size])), id);
  }

  /** Records the upload the rebuilt file became. */
  markRebuilt(id: string, slug: string): void {
    this.#db.prepare('UPDATE chunked_uploads SET slug = ? WHERE id = ?').run(slug, id);
  }

  /**
   * Forgets chunked uploads that expired a day ago or more without becoming an upload, and the lists of
   * those that did after 30 days (render workers then fetch such a scene whole); their chunks stay,
   * collected by last use.
   */
  dropExpired(): number {
    const now = this.options.now().getTime();
    const day = new Date(now - 24 * 3600_000).toISOString();
    const month = new Date(now - 30 * 24 * 3600_000).toISOString();
    return this.#db.prepare('DELETE FROM chunked_uploads WHERE (slug IS NULL AND expires_at < ?) OR expires_at < ?').run(day, month).changes;
  }

  close(): void {
    this.#db.close();
  }

  #pinned(): Set<string> {
    const pinned = new Set<string>();
    const now = this.options.now().toISOString();
    for (const chunks of this.#db.prepare('SELECT chunks FROM chunked_uploads WHERE slug IS NULL AND expires_at > ?').pluck().all(now) as string[]) {
      for (const [hash] of JSON.parse(chunks) as [string, number][]) pinned.add(hash);
    }
    return pinned;
  }

  #prepared: ReturnType<ChunkStore['prepare']> | null = null;

  #statements() {
    this.#prepared ??= this.prepare();
    return this.#prepared;
  }

  private prepare() {
    return {
      known: this.#db.prepare('SELECT 1 FROM chunks WHERE hash = ?').pluck(),
      upsert: this.#db.prepare('INSERT INTO chunks (hash, size, last_used) VALUES (?, ?, ?) ON CONFLICT(hash) DO UPDATE SET last_used = excluded.last_used'),
      own: this.#db.prepare('INSERT OR IGNORE INTO owners (hash, key_id) VALUES (?, ?)'),
    };
  }

  #pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error('Not a chunk hash.');
    return join(this.#objects, hash.slice(0, 2), hash);
  }
}
