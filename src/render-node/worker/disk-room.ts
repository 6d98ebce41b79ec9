import type { Logger } from 'pino';
import { formatBytes } from '../../shared/text';
import { freeBytes, isDiskFullError } from '../disk';

/** Below this much free space where a worker works, a chunk that failed is put down to its full disk. */
export const WORKER_LOW_SPACE_BYTES = 16 * 1024 * 1024;
/** Free space a worker wants beyond what it had when its disk filled up before it takes chunks again. */
const ROOM_MARGIN_BYTES = 64 * 1024 * 1024;
/** How often a worker whose disk is full looks whether it has room again. */
const ROOM_CHECK_MS = 10_000;

/** The worker's own disk is too full for a chunk: the chunk goes back to the queue for another worker. */
export class WorkerDiskFullError extends Error {
  override readonly name = 'WorkerDiskFullError';
}

/**
 * Whether a chunk's failure comes from the worker's own full disk: the error (or Blender's words in
 * `blenderTail`) says so, or less than {@link WORKER_LOW_SPACE_BYTES} is free in `dir`.
 */
export async function isOwnDiskFull(err: unknown, dir: string, blenderTail = ''): Promise<boolean> {
  if (err instanceof WorkerDiskFullError || isDiskFullError(err) || isDiskFullError(blenderTail)) return true;
  return (await freeBytes(dir).catch(() => Infinity)) < WORKER_LOW_SPACE_BYTES;
}

/** What the room watch pauses: the worker's intake of chunks (BullMQ's worker). */
export interface ChunkIntakeSwitch {
  pause(doNotWaitActive?: boolean): Promise<void>;
  resume(): unknown;
}

/** Where a worker tells the node's worker list about its disk. */
export interface DiskStatusSink {
  diskFull: string | null;
  report(): Promise<void>;
}

/** How the room watch measures and waits (injected in tests). */
export interface DiskRoomClock {
  freeBytes: (dir: string) => Promise<number>;
  checkMs: number;
}

/**
 * A worker's disk room: once its disk has filled up under a chunk, it stops taking chunks, says why in
 * its record on the worker list, and looks every few seconds whether it has room again (the free space
 * it had then plus a margin, at least double), then takes chunks again.
 */
export class DiskRoom {
  private needed: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private intake: ChunkIntakeSwitch | null = null;

  constructor(
    private readonly dir: string,
    private readonly status: DiskStatusSink,
    private readonly log: Logger,
    private readonly clock: DiskRoomClock = { freeBytes, checkMs: ROOM_CHECK_MS },
  ) {}

  /** The intake to pause while the disk is full. */
  attach(intake: ChunkIntakeSwitch): void {
    this.intake = intake;
  }

  /** Whether the worker is waiting for room. */
  get full(): boolean {
    return this.needed !== null;
  }

  /** The disk filled up while `what`: stop taking chunks until there is room again. */
  async markFull(what: string): Promise<void> {
    const free = await this.clock.freeBytes(this.dir).catch(() => 0);
    this.needed = free + Math.max(ROOM_MARGIN_BYTES, free);
    this.status.diskFull = `Disk full: ${what}, and ${formatBytes(free)} is free. It takes no chunks until it has ${formatBytes(this.needed)} free.`;
    this.log.warn({ free, needed: this.needed }, 'the disk is full: chunks go to other workers until there is room again');
    void this.status.report();
    void this.intake?.pause(true).catch((err: unknown) => this.log.warn({ err }, 'could not stop taking chunks'));
    if (!this.timer) {
      this.timer = setInterval(() => void this.check(), this.clock.checkMs);
      this.timer.unref();
    }
  }

  /** Stop watching (the worker stops). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Take chunks again once the disk has the room it lacked. */
  async check(): Promise<void> {
    if (this.needed === null) return;
    const free = await this.clock.freeBytes(this.dir).catch(() => 0);
    if (free < this.needed) return;
    this.needed = null;
    this.stop();
    this.status.diskFull = null;
    this.log.info({ free }, 'the disk has room again: taking chunks');
    void this.status.report();
    await this.intake?.resume();
  }
}
