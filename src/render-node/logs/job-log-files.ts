import { appendFileSync, closeSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** How much of a job's log is kept: its first `headBytes`, and its last `segments` x `segmentBytes`. */
export interface LogCap {
  headBytes: number;
  segmentBytes: number;
  segments: number;
}

/** The default cap: 64 KiB of the start and 256 KiB of the end of each job's log. */
export const DEFAULT_LOG_CAP: LogCap = { headBytes: 64 * 1024, segmentBytes: 64 * 1024, segments: 4 };

/** A stretch of the log's end, in a file named after the byte of the log it starts at. */
interface Segment {
  start: number;
  size: number;
}

/** What a read of the log returns: the text from `offset` to `nextOffset`, and how much was left out. */
export interface LogSlice {
  text: string;
  offset: number;
  nextOffset: number;
  cutBytes: number;
}

const HEAD = 'head.log';
const segmentName = (start: number) => `tail-${String(start).padStart(12, '0')}.log`;

/**
 * One job's log on disk, in a folder of its own: whole lines go to the head file until it is full,
 * then to tail files of a fixed size, the oldest removed once there are more than the cap allows.
 * Offsets are bytes of the whole log as written, so they stay valid for a reader following it.
 */
export class JobLogFiles {
  private headSize = 0;
  private readonly tail: Segment[] = [];

  constructor(
    private readonly dir: string,
    private readonly cap: LogCap,
  ) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    if (names.includes(HEAD)) this.headSize = statSync(join(dir, HEAD)).size;
    for (const name of names.sort()) {
      const match = /^tail-(\d+)\.log$/.exec(name);
      if (match) this.tail.push({ start: Number(match[1]), size: statSync(join(dir, name)).size });
    }
  }

  /** Bytes written to the log so far, including any left out. */
  get size(): number {
    const last = this.tail.at(-1);
    return last ? last.start + last.size : this.headSize;
  }

  /** Append whole lines (each ending in a newline). */
  append(lines: readonly string[]): void {
    mkdirSync(this.dir, { recursive: true });
    for (const line of lines) {
      const bytes = Buffer.from(line, 'utf8');
      if (this.tail.length === 0 && this.headSize + bytes.length <= this.cap.headBytes) {
        appendFileSync(join(this.dir, HEAD), bytes);
        this.headSize += bytes.length;
        continue;
      }
      let last = this.tail.at(-1);
      if (!last || (last.size > 0 && last.size + bytes.length > this.cap.segmentBytes)) {
        last = { start: this.size, size: 0 };
        this.tail.push(last);
        while (this.tail.length > this.cap.segments) rmSync(join(this.dir, segmentName(this.tail.shift()!.start)), { force: true });
      }
      appendFileSync(join(this.dir, segmentName(last.start)), bytes);
      last.size += bytes.length;
    }
  }

  /** The log from byte `since` on (clamped to what exists); a line stands where bytes were left out. */
  read(since: number): LogSlice {
    const total = this.size;
    const offset = Math.max(0, Math.min(since, total));
    const keptFrom = this.tail[0]?.start ?? this.headSize;
    const cutBytes = keptFrom - this.headSize;
    const parts: Buffer[] = [];
    if (offset < this.headSize) parts.push(readFrom(join(this.dir, HEAD), offset, this.headSize - offset));
    if (cutBytes > 0 && offset < keptFrom) parts.push(Buffer.from(`[… ${cutBytes} bytes of this log were left out here to keep it short …]\n`, 'utf8'));
    for (const segment of this.tail) {
      const end = segment.start + segment.size;
      if (end <= offset) continue;
      const from = Math.max(0, offset - segment.start);
      parts.push(readFrom(join(this.dir, segmentName(segment.start)), from, segment.size - from));
    }
    return { text: Buffer.concat(parts).toString('utf8'), offset, nextOffset: total, cutBytes };
  }
}

function readFrom(path: string, position: number, length: number): Buffer {
  if (length <= 0) return Buffer.alloc(0);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, position);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
