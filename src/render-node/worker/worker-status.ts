import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { WorkerInfo } from '../../shared/api';
import type { BlenderInfo } from '../blender';
import { markWorkerOffline, reportWorker } from '../distributed';

/** The chunk a worker is rendering. */
export interface CurrentChunk {
  jobId: string;
  frames: number[];
  /** The frame Blender is on (null: between frames). */
  frame: number | null;
  abort: AbortController;
}

/** What a render worker is and does, as it reports itself in Redis for the node's worker list. */
export class WorkerStatus {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly startedAt = new Date().toISOString();
  current: CurrentChunk | null = null;
  framesRendered = 0;
  /** Why the worker takes no chunks because its disk is full, or null. */
  diskFull: string | null = null;
  /** Chunks it failed since it started. */
  chunksFailed = 0;

  constructor(
    private readonly self: { name: string; blender: BlenderInfo; threads: number | null; tags: readonly string[] },
    private readonly redis: Redis,
    private readonly onRedisError: (error: Error) => void,
  ) {}

  info(): WorkerInfo {
    const { current } = this;
    return {
      id: this.id,
      name: this.self.name,
      host: hostname(),
      blenderVersion: this.self.blender.version,
      devices: this.self.blender.cyclesDevices,
      eevee: this.self.blender.eeveeUsable,
      threads: this.self.threads,
      tags: [...this.self.tags],
      state: current ? 'rendering' : this.diskFull ? 'disk-full' : 'idle',
      reason: current ? null : this.diskFull,
      current: current ? { jobId: current.jobId, frames: current.frames, frame: current.frame } : null,
      startedAt: this.startedAt,
      lastSeenAt: new Date().toISOString(),
      framesRendered: this.framesRendered,
      chunksFailed: this.chunksFailed,
    };
  }

  /** Report the worker in Redis now; a Redis problem is passed to the error handler, never thrown. */
  report(): Promise<void> {
    return reportWorker(this.redis, this.info()).catch(this.onRedisError);
  }

  /** Report the worker as stopped: it stays on the node's list for a day, offline. */
  reportStopped(): Promise<void> {
    return markWorkerOffline(this.redis, this.info()).catch(this.onRedisError);
  }
}
