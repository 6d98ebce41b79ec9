import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createZstdDecompress, zstdDecompressSync } from 'node:zlib';
import { corruptError } from './blend-file-error';
import type { ByteSource, FileIdentity } from './byte-source';
import { pipedThrough } from './piped-through';
import { frameAt, type ZstdSeekTable } from './zstd-seek-table';

const FRAME_CACHE_BYTES = 16 * 1024 * 1024;

/** A zstd frame to decompress, with the size its seek table or header claims (null: not recorded). */
export interface ZstdFrameSpan {
  offset: number;
  length: number;
  size: number | null;
}

/**
 * The decompressed content of the zstd frames of a file, streamed frame by frame (Node's zstd
 * stream ends after the first frame of a multi-frame file). Memory stays bounded whatever the sizes,
 * and a frame that unpacks to more than it claims stops at the first byte too many.
 */
export function zstdContent(path: string, frames: readonly ZstdFrameSpan[]): Readable {
  return Readable.from(
    (async function* () {
      for (const frame of frames) {
        if (frame.length === 0) continue;
        const raw = createReadStream(path, { start: frame.offset, end: frame.offset + frame.length - 1, highWaterMark: 1024 * 1024 });
        let seen = 0;
        for await (const chunk of pipedThrough(raw, createZstdDecompress())) {
          if (!Buffer.isBuffer(chunk)) continue;
          seen += chunk.length;
          if (frame.size !== null && seen > frame.size) throw overIndex(path);
          yield chunk;
        }
        if (frame.size !== null && seen !== frame.size) throw overIndex(path);
      }
    })(),
    { objectMode: false },
  );
}

const overIndex = (path: string) => corruptError(path, 'its compressed data does not match its own index');

/** The frames a seek table describes, with the sizes it claims. */
export function tableFrames(table: ZstdSeekTable): ZstdFrameSpan[] {
  const offsets = table.compressedOffsets;
  const sizes = table.decompressedOffsets;
  return Array.from({ length: offsets.length - 1 }, (_, i) => ({ offset: offsets[i]!, length: offsets[i + 1]! - offsets[i]!, size: sizes[i + 1]! - sizes[i]! }));
}

/**
 * Random access to a zstd-compressed .blend through a seek table (Blender's own, or one built from
 * frame headers): a read decompresses only the frames it touches, each never past the size the table
 * claims for it; recent frames stay cached (up to 16 MiB).
 */
export class ZstdByteSource implements ByteSource {
  readonly compression = 'zstd' as const;
  readonly size: number;
  private readonly cache: { index: number; data: Buffer }[] = [];
  private cachedBytes = 0;

  constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly table: ZstdSeekTable,
    readonly identity: FileIdentity,
  ) {
    this.size = table.decompressedOffsets[table.decompressedOffsets.length - 1]!;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    const end = Math.min(this.size, offset + length);
    if (end <= offset) return Buffer.alloc(0);
    const first = frameAt(this.table, offset);
    const frameStart = this.table.decompressedOffsets[first]!;
    const firstFrame = await this.frame(first);
    if (end <= frameStart + firstFrame.length) return firstFrame.subarray(offset - frameStart, end - frameStart);
    const out = Buffer.allocUnsafe(end - offset);
    let done = 0;
    for (let index = first; done < out.length; index++) {
      const start = this.table.decompressedOffsets[index]!;
      const data = index === first ? firstFrame : await this.frame(index);
      const from = Math.max(0, offset + done - start);
      done += data.copy(out, done, from, Math.min(data.length, from + out.length - done));
    }
    return out;
  }

  private async frame(index: number): Promise<Buffer> {
    const at = this.cache.findIndex((entry) => entry.index === index);
    if (at >= 0) {
      const [hit] = this.cache.splice(at, 1);
      this.cache.unshift(hit!);
      return hit!.data;
    }
    const start = this.table.compressedOffsets[index]!;
    const compressed = Buffer.allocUnsafe(this.table.compressedOffsets[index + 1]! - start);
    const { bytesRead } = await this.handle.read(compressed, 0, compressed.length, start);
    const expected = this.table.decompressedOffsets[index + 1]! - this.table.decompressedOffsets[index]!;
    let data: Buffer;
    try {
      data = zstdDecompressSync(compressed.subarray(0, bytesRead), { maxOutputLength: Math.max(1, expected) });
    } catch (error) {
      if (error instanceof RangeError || (error instanceof Error && 'code' in error && error.code === 'ERR_BUFFER_TOO_LARGE')) throw overIndex(this.path);
      throw corruptError(this.path, `its compressed data cannot be unpacked (${error instanceof Error ? error.message : String(error)})`);
    }
    if (data.length !== expected) throw overIndex(this.path);
    this.cache.unshift({ index, data });
    this.cachedBytes += data.length;
    while (this.cache.length > 1 && this.cachedBytes > FRAME_CACHE_BYTES) this.cachedBytes -= this.cache.pop()!.data.length;
    return data;
  }

  stream(): Readable {
    return zstdContent(this.path, tableFrames(this.table));
  }

  async close(): Promise<void> {
    this.cache.length = 0;
    this.cachedBytes = 0;
    await this.handle.close();
  }
}
