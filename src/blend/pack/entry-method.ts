import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';
import type { ZipMethod } from './zip-writer';

/** Formats that are already compressed: stored as they are (deflating them costs time and saves nothing). */
const COMPRESSED_EXTENSIONS = new Set([
  '.png', '.jpg', '.jpeg', '.webp', '.gif', '.jp2', '.j2c', '.heic', '.avif',
  '.mp4', '.m4v', '.mov', '.mkv', '.webm', '.avi', '.ogv', '.ogg', '.oga', '.flv', '.mpg', '.mpeg', '.dv',
  '.mp3', '.m4a', '.aac', '.flac', '.opus',
  '.zip', '.gz', '.zst', '.7z', '.bz2', '.xz', '.rar', '.usdz', '.vdb',
]);
const EXR_MAGIC = 0x01312f76;
const EXR_HEAD_BYTES = 64 * 1024;
const EXR_NO_COMPRESSION = 0;
/** Windows deflated to judge an entry, spread evenly from its first byte to its last. */
const SAMPLE_COUNT = 16;
const SAMPLE_BYTES = 64 * 1024;
/** Deflate must save at least this share of the sampled bytes for an entry to be deflated. */
const MIN_SAVING = 0.1;

/** Random access to the bytes an entry is made of, for sampling them. */
export interface EntryBytes {
  /** Bytes of the source the entry is made of. */
  size: number;
  /** `length` bytes from `offset` of the source (fewer when it ends first). */
  read(offset: number, length: number): Promise<Buffer>;
  /** Ranges of the source replaced in the entry (sorted by offset, not overlapping): never sampled. */
  replaced?: readonly { offset: number; length: number }[];
}

/** Whether the first bytes of an OpenEXR file say its pixels are compressed (null when unreadable). */
export function exrIsCompressed(head: Buffer): boolean | null {
  if (head.length < 8 || head.readUInt32LE(0) !== EXR_MAGIC) return null;
  let at = 8;
  while (at < head.length) {
    const nameEnd = head.indexOf(0, at);
    if (nameEnd < 0) return null;
    if (nameEnd === at) return false;
    const typeEnd = head.indexOf(0, nameEnd + 1);
    if (typeEnd < 0 || typeEnd + 4 > head.length) return null;
    const name = head.toString('latin1', at, nameEnd);
    const size = head.readInt32LE(typeEnd + 1);
    const value = typeEnd + 5;
    if (size < 0 || value + size > head.length) return null;
    if (name === 'compression' && size >= 1) return head[value] !== EXR_NO_COMPRESSION;
    at = value + size;
  }
  return null;
}

/**
 * The source ranges sampled to judge an entry of `size` bytes: all of it when small, else
 * {@link SAMPLE_COUNT} windows of {@link SAMPLE_BYTES} at fixed offsets from first byte to last,
 * without the bytes of `replaced` ranges (so every sampled byte is written as read).
 */
export function sampleRanges(size: number, replaced: readonly { offset: number; length: number }[] = []): { offset: number; length: number }[] {
  const windows: { offset: number; length: number }[] = [];
  if (size <= SAMPLE_COUNT * SAMPLE_BYTES) windows.push({ offset: 0, length: size });
  else for (let i = 0; i < SAMPLE_COUNT; i++) windows.push({ offset: Math.floor((i * (size - SAMPLE_BYTES)) / (SAMPLE_COUNT - 1)), length: SAMPLE_BYTES });
  const ranges: { offset: number; length: number }[] = [];
  for (const window of windows) {
    let at = window.offset;
    const end = window.offset + window.length;
    for (const cut of replaced) {
      if (cut.offset + cut.length <= at) continue;
      if (cut.offset >= end) break;
      if (cut.offset > at) ranges.push({ offset: at, length: cut.offset - at });
      at = Math.max(at, cut.offset + cut.length);
    }
    if (at < end) ranges.push({ offset: at, length: end - at });
  }
  return ranges;
}

/** Whether fast deflate saves at least {@link MIN_SAVING} of the sampled bytes of an entry. */
export async function deflatePays(bytes: EntryBytes): Promise<boolean> {
  let raw = 0;
  let packed = 0;
  for (const range of sampleRanges(bytes.size, bytes.replaced)) {
    const sample = await bytes.read(range.offset, range.length);
    if (sample.length === 0) continue;
    raw += sample.length;
    packed += deflateRawSync(sample, { level: constants.Z_BEST_SPEED }).length;
  }
  return raw > 0 && packed <= raw * (1 - MIN_SAVING);
}

/** Whether a file is always stored as it is, never deflated (an already-compressed format, by its name). */
export function storedUnread(source: string): boolean {
  return COMPRESSED_EXTENSIONS.has(extname(source).toLowerCase());
}

/**
 * How to store an entry: files in already-compressed formats (PNG, JPEG, compressed EXR, video,
 * audio...) stored unread, anything else deflated only when a deflate of samples at fixed offsets
 * saves enough (a .blend of packed images or noise is stored, a plain .blend deflated). `bytes` reads
 * what the entry is made of (a .blend's decompressed content); without it the file at `source` is
 * read. Depends only on those bytes, so the same input always gives the same choice.
 */
export async function entryMethod(source: string, bytes?: EntryBytes): Promise<ZipMethod> {
  if (bytes) return (await deflatePays(bytes)) ? 'deflate' : 'store';
  const extension = extname(source).toLowerCase();
  if (storedUnread(source)) return 'store';
  const file = await open(source, 'r');
  try {
    const { size } = await file.stat();
    const read = async (offset: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    };
    if (extension === '.exr' && exrIsCompressed(await read(0, EXR_HEAD_BYTES)) !== false) return 'store';
    return (await deflatePays({ size, read })) ? 'deflate' : 'store';
  } finally {
    await file.close();
  }
}
