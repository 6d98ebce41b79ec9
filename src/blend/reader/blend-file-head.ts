import { open } from 'node:fs/promises';
import * as zlib from 'node:zlib';
import { constants, gunzipSync } from 'node:zlib';
import { compressionOf } from './blend-compression';
import { hasBlendMagic, readHeaderFields } from './blend-header';
import type { BlendCompression } from './byte-source';

/**
 * What the first bytes of a .blend file say, read without judging whether this reader can open it
 * (Blender may). Fields are null when the layout is unknown, or the head is compressed with zstd and
 * this Node.js cannot decompress zstd (before 22.15).
 */
export interface BlendFileHead {
  compression: BlendCompression;
  /**
   * `legacy`: 12-byte `BLENDER-v304` header (up to Blender 4.x); `large`: `BLENDER17-01v0500`, the
   * header of Blender 5.0 and later.
   */
  format: 'legacy' | 'large' | null;
  pointerSize: 4 | 8 | null;
  endianness: 'little' | 'big' | null;
  /** Blender version that wrote the file as "major.minor", e.g. "3.4". */
  version: string | null;
  /** The same as a number, e.g. 304 or 500. */
  versionNumber: number | null;
}

const HEAD_BYTES = 64 * 1024;
/** Compressed bytes decompressed to find a gzip or zstd file's header: enough for its first block or frame. */
const COMPRESSED_HEAD_INPUT = 4 * 1024;
/** Decompressed bytes kept of a compressed file's head. */
const COMPRESSED_HEAD_OUTPUT = 1024 * 1024;

function unknownLayout(compression: BlendCompression): BlendFileHead {
  return { compression, format: null, pointerSize: null, endianness: null, version: null, versionNumber: null };
}

/** The head of uncompressed header bytes; null when they are not a .blend header. */
function plainHead(bytes: Uint8Array, compression: BlendCompression): BlendFileHead | null {
  if (!hasBlendMagic(bytes)) return null;
  const fields = readHeaderFields(bytes);
  if (!fields) return unknownLayout(compression);
  return {
    compression,
    format: fields.layout,
    pointerSize: fields.pointerSize,
    endianness: fields.littleEndian ? 'little' : 'big',
    version: `${Math.floor(fields.version / 100)}.${fields.version % 100}`,
    versionNumber: fields.version,
  };
}

/**
 * The head of a zstd file from its first 4 KiB of compressed bytes (Blender writes small frames, so
 * they hold the header); the layout stays unknown when this Node.js has no zstd or they do not.
 */
function zstdHead(bytes: Uint8Array): BlendFileHead {
  const decompress = zlib.zstdDecompressSync as typeof zlib.zstdDecompressSync | undefined;
  if (typeof decompress !== 'function') return unknownLayout('zstd');
  try {
    const head = decompress(bytes.subarray(0, COMPRESSED_HEAD_INPUT), { finishFlush: zlib.constants.ZSTD_e_flush, maxOutputLength: 8 * COMPRESSED_HEAD_OUTPUT });
    return plainHead(head.subarray(0, COMPRESSED_HEAD_OUTPUT), 'zstd') ?? unknownLayout('zstd');
  } catch {
    return unknownLayout('zstd');
  }
}

/**
 * Read a .blend's head from its first bytes: plain, gzip or zstd (only the head is decompressed: its
 * first 4 KiB of compressed bytes). Null when the bytes are not a Blender file; a zstd file whose head
 * cannot be decompressed here is reported as such, its layout unknown.
 */
export function parseBlendFileHead(bytes: Uint8Array): BlendFileHead | null {
  const compression = compressionOf(bytes);
  if (compression === 'zstd') return zstdHead(bytes);
  if (compression === 'gzip') {
    let inflated: Buffer;
    try {
      inflated = gunzipSync(bytes.subarray(0, COMPRESSED_HEAD_INPUT), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: 8 * COMPRESSED_HEAD_OUTPUT });
    } catch {
      return null;
    }
    inflated = inflated.subarray(0, COMPRESSED_HEAD_OUTPUT);
    return plainHead(inflated, 'gzip');
  }
  return plainHead(bytes, 'none');
}

/** {@link parseBlendFileHead} of the file at `path` (reads only its head). */
export async function readBlendFileHead(path: string): Promise<BlendFileHead | null> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    return parseBlendFileHead(buffer.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}
