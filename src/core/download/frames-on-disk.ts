import { stat } from 'node:fs/promises';
import type { JobFrames } from '../../shared/api';
import type { CallOptions } from '../api';
import { AbortError, NotFoundError } from '../errors';
import { abortableSleep, type Clock, runPool, type Sleep, systemClock } from '../util';
import { downloadFile } from './download-file';
import { ExpiredUrlError } from './expired-url-error';
import { resolveInside, sanitizeRelativePath } from './safe-path';

/** The part of the API client that lists the frames a job has rendered so far (a Renderdrop node's route). */
export interface FramesSource {
  getJobFrames(jobId: string, options?: CallOptions): Promise<JobFrames>;
}

/** How many of a job's frames are in its folder. */
export interface FramesOnDisk {
  jobId: string;
  onDisk: number;
  totalFrames: number;
}

/** What one look at the frames route found in the folder. */
export interface FramesCheck extends FramesOnDisk {
  /** Frames in the folder that are the node's current version: their size, by path in the folder. */
  current: Map<string, number>;
  /** Frames to fetch: missing, or older than the node's file (`replace`), by path in the folder. */
  toFetch: Map<string, FrameToFetch>;
}

/** A frame the folder lacks in its current version. */
export interface FrameToFetch {
  url: string;
  /** A file of an older render of it is in the folder. */
  replace: boolean;
  /** When the node's file was written (it becomes the fetched file's time); absent when the node does not say. */
  mtimeMs?: number;
}

/** Where a job's frames go and how they are fetched. */
export interface FrameFollowerOptions {
  source: FramesSource;
  jobId: string;
  dir: string;
  signal?: AbortSignal;
  /** Frames fetched at once (default 4). */
  concurrency?: number;
  clock?: Clock;
  sleep?: Sleep;
  random?: () => number;
  onFrames?: (progress: FramesOnDisk) => void;
}

/**
 * How much older than the node's file a frame on disk may look and still be the same render: nothing
 * (1 ms of rounding) where the file system keeps fractions of a second, 2 s where it keeps whole
 * seconds or two (HFS+, FAT), read from the frame's own time.
 */
function mtimeSlackMs(localMtimeMs: number): number {
  return Math.round(localMtimeMs) % 1000 === 0 ? 2_000 : 1;
}

/** Sources that answered 404 for the frames route: a farm without it (asked again by none of its followers). */
const WITHOUT_ROUTE = new WeakSet<FramesSource>();

/**
 * Brings a job's frames into its folder from the node's frames route, as they are rendered. Each pass
 * lists the frames once and fetches those missing from the folder or older than the node's file (its
 * size or time differs: the frame was rendered again), through `.part` files; a fetched frame takes
 * the node's file time, so the folder itself records which version it holds and a later run (after a
 * restart) resumes without fetching anything twice. For a node that gives no size or time, a frame on
 * disk is kept unless it left the list and came back (rendered again). A server without the route
 * (404) makes the follower unsupported, and every later follower of the same source: passes then do nothing.
 */
export class FrameFollower {
  readonly #o: FrameFollowerOptions;
  /** Frames of the last list, by path in the folder. */
  #listed = new Set<string>();
  /** Frames that left the list since this follower began (rendered again when they return). */
  readonly #gone = new Set<string>();
  #onDisk = 0;

  constructor(options: FrameFollowerOptions) {
    this.#o = options;
  }

  /** False once the server answered that it has no frames route. */
  get supported(): boolean {
    return !WITHOUT_ROUTE.has(this.#o.source);
  }

  /** Frames in the folder as of the last pass. */
  get onDisk(): number {
    return this.#onDisk;
  }

  /**
   * One frames call: which listed frames the folder holds in their current version and which to fetch.
   * Null when the server has no frames route.
   */
  async check(): Promise<FramesCheck | null> {
    if (!this.supported) return null;
    const o = this.#o;
    let list: JobFrames;
    try {
      list = await o.source.getJobFrames(o.jobId, o.signal ? { signal: o.signal } : {});
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      WITHOUT_ROUTE.add(o.source);
      return null;
    }
    const listed = new Set(list.frames.map((f) => sanitizeRelativePath(f.fileName)));
    for (const path of this.#listed) if (!listed.has(path)) this.#gone.add(path);
    this.#listed = listed;
    const check: FramesCheck = { jobId: o.jobId, onDisk: 0, totalFrames: list.totalFrames, current: new Map(), toFetch: new Map() };
    for (const frame of list.frames) {
      const relativePath = sanitizeRelativePath(frame.fileName);
      const local = await stat(resolveInside(o.dir, relativePath)).catch(() => null);
      const modifiedMs = frame.modifiedAt ? Date.parse(frame.modifiedAt) : Number.NaN;
      const versioned = typeof frame.size === 'number' && Number.isFinite(modifiedMs);
      if (local && versioned && local.size === frame.size && local.mtimeMs >= modifiedMs - mtimeSlackMs(local.mtimeMs)) {
        check.current.set(relativePath, local.size);
        check.onDisk++;
      } else if (local && !versioned && !this.#gone.has(relativePath)) {
        check.onDisk++;
      } else {
        check.toFetch.set(relativePath, { url: frame.url, replace: local !== null, ...(versioned ? { mtimeMs: modifiedMs } : {}) });
      }
    }
    return check;
  }

  /** One frames call and the fetches it calls for; the frames then on disk, null when the server has no frames route. */
  async pass(): Promise<FramesOnDisk | null> {
    const check = await this.check();
    if (check === null) return null;
    let onDisk = check.onDisk;
    this.#report(check.totalFrames, onDisk);
    await runPool([...check.toFetch], this.#o.concurrency ?? 4, async ([relativePath, frame]) => {
      if (!(await this.#fetch(relativePath, frame))) return;
      this.#gone.delete(relativePath);
      this.#report(check.totalFrames, ++onDisk);
    });
    return { jobId: this.#o.jobId, onDisk, totalFrames: check.totalFrames };
  }

  /** Fetches one frame; false when its signed URL expired (the next pass has a fresh one). */
  async #fetch(relativePath: string, frame: FrameToFetch): Promise<boolean> {
    const o = this.#o;
    try {
      await downloadFile({
        url: () => frame.url,
        path: resolveInside(o.dir, relativePath),
        replace: frame.replace,
        ...(frame.mtimeMs !== undefined ? { mtimeMs: frame.mtimeMs } : {}),
        sleep: o.sleep ?? abortableSleep,
        clock: o.clock ?? systemClock,
        random: o.random ?? Math.random,
        onBytes: () => undefined,
        maxAttempts: 3,
        ...(o.signal ? { signal: o.signal } : {}),
      });
      return true;
    } catch (error) {
      if (error instanceof ExpiredUrlError) return false;
      if (o.signal?.aborted) throw new AbortError('Download stopped.');
      throw error;
    }
  }

  #report(totalFrames: number, onDisk: number): void {
    this.#onDisk = onDisk;
    this.#o.onFrames?.({ jobId: this.#o.jobId, onDisk, totalFrames });
  }
}
