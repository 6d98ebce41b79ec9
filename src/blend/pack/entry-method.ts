import { open } from 'node:fs/promises';
import { extname } from 'node:path';
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

/** Store already-compressed files (PNG, JPEG, compressed EXR, video, audio...), deflate the rest. */
export async function entryMethod(source: string, isBlend: boolean): Promise<ZipMethod> {
  if (isBlend) return 'deflate';
  const extension = extname(source).toLowerCase();
  if (COMPRESSED_EXTENSIONS.has(extension)) return 'store';
  if (extension !== '.exr') return 'deflate';
  const file = await open(source, 'r');
  try {
    const head = Buffer.alloc(EXR_HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return exrIsCompressed(head.subarray(0, bytesRead)) === false ? 'deflate' : 'store';
  } finally {
    await file.close();
  }
}
