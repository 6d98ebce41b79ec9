import { z } from 'zod';
import { type Db, parseJsonColumn, parseOptionalRow, parseRow } from '../store';
import { splitIntoChunks } from './chunk-plan';

const chunkRow = z.object({ idx: z.number().int(), frames: z.string(), generation: z.number().int() });
const framesColumn = z.array(z.number().int());
const statusRow = z.object({ status: z.string() });
const frameRow = z.object({ frame: z.number().int() });
const countRow = z.object({ n: z.number().int() });
const sceneRow = z.object({ sha256: z.string(), size: z.number() });
const blenderRow = z.object({ version: z.string() });

function toChunk(value: unknown): ChunkRecord {
  const r = parseRow('render_chunks', chunkRow, value);
  return { index: r.idx, frames: parseJsonColumn('render_chunks.frames', framesColumn, r.frames) ?? [], generation: r.generation };
}

/** One chunk of a distributed render as the node records it. */
export interface ChunkRecord {
  index: number;
  frames: number[];
  /** Bumped when the chunk is put in the queue anew (its earlier queue entry finished without its frames). */
  generation: number;
}

/** The chunks of distributed renders, the fingerprint of each job's scene and its Blender version, kept in SQLite. */
export class ChunksRepo {
  constructor(private readonly db: Db) {}

  /**
   * A job's chunks, made from its frames (in render order) the first time, so a restarted node keeps the
   * same split; `lanes` chunks at a time share their frames in turn (see {@link splitIntoChunks}).
   */
  ensure(jobId: string, frames: readonly number[], size: number, lanes = 1): ChunkRecord[] {
    return this.db.transaction(() => {
      const existing = this.list(jobId);
      if (existing.length > 0) return existing;
      const insert = this.db.prepare('INSERT INTO render_chunks (job_id, idx, frames) VALUES (?, ?, ?)');
      splitIntoChunks(frames, size, lanes).forEach((chunk, index) => insert.run(jobId, index, JSON.stringify(chunk)));
      return this.list(jobId);
    })();
  }

  /**
   * Split a job's chunks again for a requeue of `frames`: they leave the chunks they were in (a chunk
   * left with none goes) and make new chunks of `size` frames, numbered after the others and in their
   * first generation, so their queue entries are new ones whatever became of the old.
   */
  requeue(jobId: string, frames: readonly number[], size: number): ChunkRecord[] {
    const again = new Set(frames);
    return this.db.transaction(() => {
      const existing = this.list(jobId);
      const update = this.db.prepare('UPDATE render_chunks SET frames = ? WHERE job_id = ? AND idx = ?');
      const remove = this.db.prepare('DELETE FROM render_chunks WHERE job_id = ? AND idx = ?');
      for (const chunk of existing) {
        const kept = chunk.frames.filter((f) => !again.has(f));
        if (kept.length === chunk.frames.length) continue;
        if (kept.length === 0) remove.run(jobId, chunk.index);
        else update.run(JSON.stringify(kept), jobId, chunk.index);
      }
      const next = existing.reduce((max, c) => Math.max(max, c.index + 1), 0);
      const insert = this.db.prepare('INSERT INTO render_chunks (job_id, idx, frames) VALUES (?, ?, ?)');
      splitIntoChunks([...again].sort((a, b) => a - b), size).forEach((chunk, i) => insert.run(jobId, next + i, JSON.stringify(chunk)));
      return this.list(jobId);
    })();
  }

  list(jobId: string): ChunkRecord[] {
    return this.db.prepare('SELECT idx, frames, generation FROM render_chunks WHERE job_id = ? ORDER BY idx').all(jobId).map(toChunk);
  }

  get(jobId: string, index: number): ChunkRecord | null {
    const r: unknown = this.db.prepare('SELECT idx, frames, generation FROM render_chunks WHERE job_id = ? AND idx = ?').get(jobId, index);
    return r === undefined ? null : toChunk(r);
  }

  /** Move a chunk to its next generation and return it. */
  nextGeneration(jobId: string, index: number): number {
    this.db.prepare('UPDATE render_chunks SET generation = generation + 1 WHERE job_id = ? AND idx = ?').run(jobId, index);
    return this.get(jobId, index)?.generation ?? 0;
  }

  /** A job's status, read without the rest of its record (frame uploads ask for it often). */
  jobStatus(jobId: string): string | null {
    return parseOptionalRow('jobs', statusRow, this.db.prepare('SELECT status FROM jobs WHERE id = ?').get(jobId))?.status ?? null;
  }

  /** Frames of a job the node has counted. */
  recordedFrames(jobId: string): Set<number> {
    const rows = this.db.prepare('SELECT frame FROM frames WHERE job_id = ?').all(jobId);
    return new Set(rows.map((r) => parseRow('frames', frameRow, r).frame));
  }

  /** How many frames of a job the node has counted. */
  recordedCount(jobId: string): number {
    return parseRow('frames', countRow, this.db.prepare('SELECT COUNT(*) AS n FROM frames WHERE job_id = ?').get(jobId)).n;
  }

  /** Whether the node has counted a frame. */
  hasFrame(jobId: string, frame: number): boolean {
    return this.db.prepare('SELECT 1 FROM frames WHERE job_id = ? AND frame = ?').get(jobId, frame) !== undefined;
  }

  scene(jobId: string): { sha256: string; size: number } | null {
    return parseOptionalRow('render_scenes', sceneRow, this.db.prepare('SELECT sha256, size FROM render_scenes WHERE job_id = ?').get(jobId));
  }

  setScene(jobId: string, sha256: string, size: number): void {
    this.db.prepare('INSERT OR REPLACE INTO render_scenes (job_id, sha256, size) VALUES (?, ?, ?)').run(jobId, sha256, size);
  }

  /** The Blender version a job's chunks render with, once chosen. */
  blender(jobId: string): string | null {
    return parseOptionalRow('render_blenders', blenderRow, this.db.prepare('SELECT version FROM render_blenders WHERE job_id = ?').get(jobId))?.version ?? null;
  }

  /** Record the Blender version a job's chunks render with; the first choice stays. */
  setBlender(jobId: string, version: string): void {
    this.db.prepare('INSERT OR IGNORE INTO render_blenders (job_id, version) VALUES (?, ?)').run(jobId, version);
  }
}
