import { open } from 'node:fs/promises';
import { constants, gunzipSync } from 'node:zlib';
import { compressionOf } from './blend-compression';
import { hasBlendMagic, readHeaderFields } from './blend-header';
import type { BlendCompression } from './byte-source';

/**
 * What the first bytes of a .blend file say, read without judging whether this reader can open it
 * (Blender may). Fields are null when the head is compressed with zstd or its layout is unknown.
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
/** Compressed bytes inflated to find a gzip file's header: enough for its first block, at most about 4 MiB once inflated. */
const GZIP_HEAD_INPUT = 4 * 1024;
/** Decompressed bytes kept of a gzip file's head. */
const GZIP_HEAD_OUTPUT = 1024 * 1024;

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
 * Read a .blend's head from its first bytes: plain, gzip (only the head is inflated: its first 4 KiB
 * of compressed bytes) or zstd (reported as such, version unknown). Null when the bytes are not a
 * Blender file.
 */
export function parseBlendFileHead(bytes: Uint8Array): BlendFileHead | null {
  const compression = compressionOf(bytes);
  if (compression === 'zstd') return unknownLayout('zstd');
  if (compression === 'gzip') {
    let inflated: Buffer;
    try {
      inflated = gunzipSync(bytes.subarray(0, GZIP_HEAD_INPUT), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: 8 * GZIP_HEAD_OUTPUT });
    } catch {
      return null;
    }
    inflated = inflated.subarray(0, GZIP_HEAD_OUTPUT);
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
