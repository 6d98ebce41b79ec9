import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import { compressionOf } from './blend-compression';
import { BlendFileError, corruptError, fileSystemError, truncatedError } from './blend-file-error';
import type { ByteSource, FileIdentity } from './byte-source';
import { FileByteSource } from './file-byte-source';
import { pipedThrough } from '../pack/piped-through';
import { ZstdByteSource, zstdContent } from './zstd-byte-source';
import { listZstdFrames, ZstdFormatError, type ZstdFrame } from './zstd-frames';
import { parseSeekTable, parseSeekTableFooter, SEEK_TABLE_FOOTER_BYTES, seekTableBytes, type ZstdSeekTable } from './zstd-seek-table';

/** Largest frame decompressed whole for random access; files with larger frames are unpacked to a temporary copy. */
const MAX_INDEXED_FRAME = 64 * 1024 * 1024;

/** Whether this Node.js can decompress zstd (22.15 and later). */
export function hasZstd(): boolean {
  return typeof zlib.createZstdDecompress === 'function' && typeof zlib.zstdDecompressSync === 'function';
}

/** Options of {@link openByteSource}. */
export interface OpenByteSourceOptions {
  /** Folder for the decompressed copy of a gzip file or a zstd file without seek table (default: the OS temp folder). */
  tempDir?: string;
}

/**
 * Open a .blend for random access to its decompressed bytes: plain files directly, zstd files (Blender
 * 3.0+) through their seek table, gzip files and zstd files without a seek table by decompressing them
 * once into a temporary file (deleted on close). Throws a BlendFileError naming the file.
 */
export async function openByteSource(path: string, options: OpenByteSourceOptions = {}): Promise<ByteSource> {
  let handle: FileHandle;
  let size: number;
  let identity: FileIdentity;
  try {
    handle = await open(path, 'r');
    const stats = await handle.stat();
    if (stats.isDirectory()) {
      await handle.close();
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    }
    size = stats.size;
    identity = { dev: stats.dev, ino: stats.ino, mtimeMs: stats.mtimeMs };
  } catch (error) {
    throw error instanceof BlendFileError ? error : fileSystemError(path, error);
  }
  try {
    const head = Buffer.alloc(Math.min(4, size));
    await handle.read(head, 0, head.length, 0);
    const compression = compressionOf(head);
    if (compression === 'none') return new FileByteSource(path, handle, size, identity);
    if (compression === 'zstd') {
      if (!hasZstd()) {
        throw new BlendFileError(
          'unsupported',
          path,
          `${path} is compressed with Zstandard, which this version of Node.js cannot read (22.15 or newer can). Update Renderdrop, or save the scene uncompressed in Blender.`,
        );
      }
      const table = await readSeekTable(handle, size);
      if (table) return new ZstdByteSource(path, handle, table, identity);
      const frames = await listZstdFrames(handle, size).catch((error: unknown) => {
        if (error instanceof ZstdFormatError) throw corruptError(path, `its compressed data is damaged (${error.message})`);
        throw error;
      });
      const built = tableFromFrames(frames);
      if (built) return new ZstdByteSource(path, handle, built, identity);
      await handle.close();
      return await inflateToTemp(path, identity, zstdContent(path, frames.filter((f) => !f.skippable)), 'zstd', options.tempDir ?? tmpdir());
    }
    await handle.close();
    return await inflateToTemp(path, identity, pipedThrough(createReadStream(path), zlib.createGunzip()), 'gzip', options.tempDir ?? tmpdir());
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error instanceof BlendFileError ? error : fileSystemError(path, error);
  }
}

async function readSeekTable(handle: FileHandle, size: number) {
  if (size < SEEK_TABLE_FOOTER_BYTES + 8) return null;
  const footer = Buffer.alloc(SEEK_TABLE_FOOTER_BYTES);
  await handle.read(footer, 0, footer.length, size - footer.length);
  const parsed = parseSeekTableFooter(footer);
  if (!parsed) return null;
  const length = seekTableBytes(parsed.frames, parsed.entryBytes);
  if (length > size) return null;
  const table = Buffer.alloc(length);
  await handle.read(table, 0, length, size - length);
  return parseSeekTable(table, size);
}

/** A seek table from frame headers, when every frame records a modest decompressed size. */
function tableFromFrames(frames: readonly ZstdFrame[]): ZstdSeekTable | null {
  const content = frames.filter((f) => !f.skippable);
  if (content.length === 0 || content.some((f) => f.contentSize === null || f.contentSize > MAX_INDEXED_FRAME)) return null;
  const compressedOffsets = new Float64Array(content.length + 1);
  const decompressedOffsets = new Float64Array(content.length + 1);
  let decompressed = 0;
  content.forEach((frame, i) => {
    compressedOffsets[i] = frame.offset;
    decompressed += frame.contentSize!;
    decompressedOffsets[i + 1] = decompressed;
  });
  compressedOffsets[content.length] = content.at(-1)!.offset + content.at(-1)!.length;
  return { compressedOffsets, decompressedOffsets };
}

async function inflateToTemp(path: string, identity: FileIdentity, content: Readable, compression: 'gzip' | 'zstd', parent: string): Promise<ByteSource> {
  const dir = await mkdtemp(join(parent, 'renderdrop-blend-'));
  const target = join(dir, 'scene.blend');
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(content, createWriteStream(target));
  } catch (error) {
    await cleanup();
    if (isFileSystemError(error)) throw fileSystemError(path, error);
    const detail = error instanceof Error ? error.message : String(error);
    if (/unexpected end|truncated/i.test(detail)) throw truncatedError(path, 'its compressed data ends early');
    throw corruptError(path, `its compressed data cannot be unpacked (${detail})`);
  }
  const handle = await open(target, 'r');
  const { size } = await handle.stat();
  return new FileByteSource(path, handle, size, identity, { compression, onClose: cleanup, contentPath: target });
}

function isFileSystemError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'syscall' in error;
}
