import { open } from 'node:fs/promises';
import { constants, gunzipSync } from 'node:zlib';

/** What the first bytes of a .blend say. Fields are null when the head is compressed with zstd. */
export interface BlendHeader {
  compression: 'none' | 'gzip' | 'zstd';
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

const GZIP = [0x1f, 0x8b];
const ZSTD = [0x28, 0xb5, 0x2f, 0xfd];
const MAGIC = 'BLENDER';
const HEAD_BYTES = 64 * 1024;
const LEGACY = /^BLENDER([_-])([vV])(\d{3})/;
const LARGE = /^BLENDER(\d{2})-(\d{2})([vV])(\d{4})/;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

function versionString(n: number): string {
  return `${Math.floor(n / 100)}.${n % 100}`;
}

/** Parse an uncompressed header; null when the bytes are not a .blend header. */
function parsePlain(bytes: Uint8Array, compression: BlendHeader['compression']): BlendHeader | null {
  const head = Buffer.from(bytes.subarray(0, 17)).toString('latin1');
  if (!head.startsWith(MAGIC)) return null;
  const legacy = LEGACY.exec(head);
  if (legacy) {
    const n = Number(legacy[3]);
    return {
      compression,
      format: 'legacy',
      pointerSize: legacy[1] === '_' ? 4 : 8,
      endianness: legacy[2] === 'v' ? 'little' : 'big',
      version: versionString(n),
      versionNumber: n,
    };
  }
  const large = LARGE.exec(head);
  if (large) {
    const n = Number(large[4]);
    return {
      compression,
      format: 'large',
      pointerSize: 8,
      endianness: large[3] === 'v' ? 'little' : 'big',
      version: versionString(n),
      versionNumber: n,
    };
  }
  return { compression, format: null, pointerSize: null, endianness: null, version: null, versionNumber: null };
}

/**
 * Read a .blend header from its first bytes: plain, gzip (the head is inflated) or zstd (reported as
 * such, version unknown). Null when the bytes are not a Blender file.
 */
export function parseBlendHeader(bytes: Uint8Array): BlendHeader | null {
  if (startsWith(bytes, ZSTD)) {
    return { compression: 'zstd', format: null, pointerSize: null, endianness: null, version: null, versionNumber: null };
  }
  if (startsWith(bytes, GZIP)) {
    let inflated: Buffer;
    try {
      inflated = gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      return null;
    }
    return parsePlain(inflated, 'gzip');
  }
  return parsePlain(bytes, 'none');
}

/** {@link parseBlendHeader} of the file at `path` (reads only its head). */
export async function readBlendHeader(path: string): Promise<BlendHeader | null> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    return parseBlendHeader(buffer.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}
