import type { FileHandle } from 'node:fs/promises';
import { BlendError } from './blend-error';

/** One frame of a zstd file: where it is and, when its header says so, how much it decompresses to. */
export interface ZstdFrame {
  offset: number;
  length: number;
  /** Decompressed size from the frame header; null when not recorded. */
  contentSize: number | null;
  /** Skippable frames hold metadata (such as Blender's seek table), not content. */
  skippable: boolean;
}

/** The bytes are not a valid zstd frame sequence. */
export class ZstdFormatError extends BlendError {}

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const READ_AHEAD = 64 * 1024;

/**
 * Every frame of a zstd file, found by walking frame and block headers (no decompression). Used when
 * a file has no seek table; Node's zstd stream stops after the first frame, so frames are decoded one
 * by one.
 */
export async function listZstdFrames(handle: FileHandle, size: number): Promise<ZstdFrame[]> {
  const reader = new HeadReader(handle, size);
  const frames: ZstdFrame[] = [];
  let at = 0;
  while (at < size) {
    const magic = (await reader.bytes(at, 4)).readUInt32LE(0);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      const length = 8 + (await reader.bytes(at + 4, 4)).readUInt32LE(0);
      frames.push({ offset: at, length, contentSize: null, skippable: true });
      at += length;
      continue;
    }
    if (magic !== FRAME_MAGIC) throw new ZstdFormatError(`no zstd frame at byte ${at}`);
    const descriptor = (await reader.bytes(at + 4, 1))[0]!;
    const fcsFlag = descriptor >> 6;
    const singleSegment = (descriptor >> 5) & 1;
    const checksum = (descriptor >> 2) & 1;
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!;
    const contentBytes = fcsFlag === 0 ? singleSegment : [0, 2, 4, 8][fcsFlag]!;
    const contentAt = at + 5 + (singleSegment ? 0 : 1) + dictionaryBytes;
    const contentSize = contentBytes === 0 ? null : readSize(await reader.bytes(contentAt, contentBytes));
    let block = contentAt + contentBytes;
    for (;;) {
      const header = await reader.bytes(block, 3);
      const value = header[0]! | (header[1]! << 8) | (header[2]! << 16);
      const type = (value >> 1) & 3;
      if (type === 3) throw new ZstdFormatError(`a zstd block at byte ${block} has a reserved type`);
      block += 3 + (type === 1 ? 1 : value >>> 3);
      if (value & 1) break;
    }
    const end = block + (checksum ? 4 : 0);
    if (end > size) throw new ZstdFormatError('the last zstd frame ends past the end of the file');
    frames.push({ offset: at, length: end - at, contentSize, skippable: false });
    at = end;
  }
  return frames;
}

function readSize(bytes: Buffer): number {
  if (bytes.length === 1) return bytes[0]!;
  if (bytes.length === 2) return bytes.readUInt16LE(0) + 256;
  if (bytes.length === 4) return bytes.readUInt32LE(0);
  return Number(bytes.readBigUInt64LE(0));
}

/** Small positional reads through a read-ahead window. */
class HeadReader {
  private start = 0;
  private window = Buffer.alloc(0);

  constructor(
    private readonly handle: FileHandle,
    private readonly size: number,
  ) {}

  async bytes(at: number, length: number): Promise<Buffer> {
    if (at + length > this.size) throw new ZstdFormatError('the compressed data ends early');
    if (at < this.start || at + length > this.start + this.window.length) {
      this.window = Buffer.alloc(Math.min(READ_AHEAD, this.size - at));
      await this.handle.read(this.window, 0, this.window.length, at);
      this.start = at;
    }
    return this.window.subarray(at - this.start, at - this.start + length);
  }
}
