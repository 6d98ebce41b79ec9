/**
 * The seek table Blender (3.0 and later) appends to a zstd-compressed .blend: a skippable frame at the
 * end listing the compressed and decompressed size of every frame, so any offset can be reached by
 * decompressing one frame ("Zstandard Seekable Format").
 */
export interface ZstdSeekTable {
  /** Offset of each frame in the compressed file, plus the end of the last frame. */
  compressedOffsets: Float64Array;
  /** Offset of each frame in the decompressed content, plus the decompressed size. */
  decompressedOffsets: Float64Array;
}

/** Size of the footer that ends the seek table: frame count, descriptor, magic. */
export const SEEK_TABLE_FOOTER_BYTES = 9;
const SEEKABLE_MAGIC = 0x8f92eab1;
const SKIPPABLE_MAGIC = 0x184d2a5e;
const CHECKSUM_FLAG = 0x80;
const RESERVED_BITS = 0x7c;

/** Frame count and entry size from the last 9 bytes of the file; null when there is no seek table. */
export function parseSeekTableFooter(footer: Buffer): { frames: number; entryBytes: number } | null {
  if (footer.length < SEEK_TABLE_FOOTER_BYTES || footer.readUInt32LE(5) !== SEEKABLE_MAGIC) return null;
  const descriptor = footer[4]!;
  if ((descriptor & RESERVED_BITS) !== 0) return null;
  return { frames: footer.readUInt32LE(0), entryBytes: descriptor & CHECKSUM_FLAG ? 12 : 8 };
}

/** Bytes of the whole skippable frame holding a table of `frames` entries of `entryBytes`. */
export function seekTableBytes(frames: number, entryBytes: number): number {
  return 8 + frames * entryBytes + SEEK_TABLE_FOOTER_BYTES;
}

/**
 * Parse the skippable frame at the end of a file of `fileSize` bytes (`table` is that whole frame).
 * Null when it is not a valid seek table for this file.
 */
export function parseSeekTable(table: Buffer, fileSize: number): ZstdSeekTable | null {
  const footer = parseSeekTableFooter(table.subarray(table.length - SEEK_TABLE_FOOTER_BYTES));
  if (!footer || table.length !== seekTableBytes(footer.frames, footer.entryBytes)) return null;
  if (table.readUInt32LE(0) !== SKIPPABLE_MAGIC || table.readUInt32LE(4) !== table.length - 8) return null;
  const compressedOffsets = new Float64Array(footer.frames + 1);
  const decompressedOffsets = new Float64Array(footer.frames + 1);
  let compressed = 0;
  let decompressed = 0;
  for (let i = 0; i < footer.frames; i++) {
    const at = 8 + i * footer.entryBytes;
    compressed += table.readUInt32LE(at);
    decompressed += table.readUInt32LE(at + 4);
    compressedOffsets[i + 1] = compressed;
    decompressedOffsets[i + 1] = decompressed;
  }
  if (compressed + table.length !== fileSize) return null;
  return { compressedOffsets, decompressedOffsets };
}

/** Index of the frame holding decompressed `offset` (binary search). */
export function frameAt(table: ZstdSeekTable, offset: number): number {
  const ends = table.decompressedOffsets;
  let lo = 0;
  let hi = ends.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ends[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
