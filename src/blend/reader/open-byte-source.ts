import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import { compressionOf } from './blend-compression';
import { asBlendFileError, BlendFileError, corruptError, fileSystemError, truncatedError } from './blend-file-error';
import type { BlendCompression, ByteSource, FileIdentity } from './byte-source';
import { BlendTooLargeError, ContentGuard, guarded, MAX_BLEND_CONTENT_BYTES } from './inflate/content-guard';
import { FileByteSource } from './file-byte-source';
import { openedOnRead, pipedThrough } from './piped-through';
import { tableFrames, ZstdByteSource, zstdContent } from './zstd-byte-source';
import { listZstdFrames, ZstdFormatError, type ZstdFrame } from './zstd-frames';
import { parseSeekTable, parseSeekTableFooter, SEEK_TABLE_FOOTER_BYTES, seekTableBytes, type ZstdSeekTable } from './zstd-seek-table';

/** Largest frame (packed or unpacked) decompressed whole for random access; files with larger frames are unpacked to a temporary copy. */
const MAX_INDEXED_FRAME = 64 * 1024 * 1024;

/** Whether this Node.js can decompress zstd (22.15 and later). */
export function hasZstd(): boolean {
  return typeof zlib.createZstdDecompress === 'function' && typeof zlib.zstdDecompressSync === 'function';
}

/** Options of {@link openByteSource}. */
export interface OpenByteSourceOptions {
  /** Folder for the decompressed copy of a gzip file or a zstd file without seek table (default: the OS temp folder). */
  tempDir?: string;
  /** Most a compressed file may unpack to (default {@link MAX_BLEND_CONTENT_BYTES}); more is refused with a BlendTooLargeError. */
  maxContentBytes?: number;
}

/**
 * Open a .blend for random access to its decompressed bytes: plain files directly, zstd files (Blender
 * 3.0+) through their seek table, gzip files and zstd files without a usable seek table by
 * decompressing them once into a temporary file (deleted on close). Decompression is bounded: no frame
 * unpacks past the size its index claims, nothing past `maxContentBytes`, and a temporary copy is
 * written only while its bytes are a valid .blend (header, then block headers). Throws a
 * BlendFileError naming the file.
 */
export async function openByteSource(path: string, options: OpenByteSourceOptions = {}): Promise<ByteSource> {
  const { handle, size, identity } = await openFile(path);
  const maxBytes = options.maxContentBytes ?? MAX_BLEND_CONTENT_BYTES;
  try {
    const compression = await compressionAt(handle, size);
    if (compression === 'none') return new FileByteSource(path, handle, size, identity);
    const { content, table } = await compressedContent(path, handle, size, compression);
    if (table) {
      if (table.decompressedOffsets[table.decompressedOffsets.length - 1]! > maxBytes) {
        content.destroy();
        throw new BlendTooLargeError(path, maxBytes);
      }
      if (indexable(table)) {
        content.destroy();
        return new ZstdByteSource(path, handle, table, identity);
      }
    }
    await handle.close();
    return await inflateToTemp(path, identity, guarded(content, new ContentGuard(path, maxBytes)), compression, options.tempDir ?? tmpdir());
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw asBlendFileError(path, error);
  }
}

async function openFile(path: string): Promise<{ handle: FileHandle; size: number; identity: FileIdentity }> {
  try {
    const handle = await open(path, 'r');
    const stats = await handle.stat();
    if (stats.isDirectory()) {
      await handle.close();
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    }
    return { handle, size: stats.size, identity: { dev: stats.dev, ino: stats.ino, mtimeMs: stats.mtimeMs } };
  } catch (error) {
    throw error instanceof BlendFileError ? error : fileSystemError(path, error);
  }
}

/** How the file behind `handle` is compressed, from its first four bytes. */
export async function compressionAt(handle: FileHandle, size: number): Promise<BlendCompression> {
  const head = Buffer.alloc(Math.min(4, size));
  await handle.read(head, 0, head.length, 0);
  return compressionOf(head);
}

/**
 * The decompressed content of a gzip or zstd file (not started until read), zstd frame by frame with
 * each frame held to the size its seek table or header claims; `table`: the zstd seek table (Blender's,
 * or one built from frame headers that all record their size), null when there is none.
 */
export async function compressedContent(
  path: string,
  handle: FileHandle,
  size: number,
  compression: Exclude<BlendCompression, 'none'>,
): Promise<{ content: Readable; table: ZstdSeekTable | null }> {
  if (compression === 'gzip') return { content: openedOnRead(() => pipedThrough(createReadStream(path), zlib.createGunzip())), table: null };
  if (!hasZstd()) {
    throw new BlendFileError(
      'unsupported',
      path,
      `${path} is compressed with Zstandard, which this version of Node.js cannot read (22.15 or newer can). Update Renderdrop, or save the scene uncompressed in Blender.`,
    );
  }
  const table = await readSeekTable(handle, size);
  if (table) return { content: zstdContent(path, tableFrames(table)), table };
  const frames = await listZstdFrames(handle, size).catch((error: unknown) => {
    if (error instanceof ZstdFormatError) throw corruptError(path, `its compressed data is damaged (${error.message})`);
    throw error;
  });
  const spans = frames.filter((f) => !f.skippable).map((f) => ({ offset: f.offset, length: f.length, size: f.contentSize }));
  return { content: zstdContent(path, spans), table: tableFromFrames(frames) };
}

/** Whether every frame of a seek table is small enough to decompress whole. */
function indexable(table: ZstdSeekTable): boolean {
  for (let i = 0; i + 1 < table.compressedOffsets.length; i++) {
    if (table.compressedOffsets[i + 1]! - table.compressedOffsets[i]! > MAX_INDEXED_FRAME) return false;
    if (table.decompressedOffsets[i + 1]! - table.decompressedOffsets[i]! > MAX_INDEXED_FRAME) return false;
  }
  return true;
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

/** A seek table from frame headers, when every frame records its decompressed size. */
function tableFromFrames(frames: readonly ZstdFrame[]): ZstdSeekTable | null {
  const content = frames.filter((f) => !f.skippable);
  if (content.length === 0 || content.some((f) => f.contentSize === null)) return null;
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

/**
 * Write `content` (guarded) to a temporary copy and open it; nothing touches the disk until its first
 * chunk has passed the guard, and a copy cut short by the guard is deleted.
 */
async function inflateToTemp(path: string, identity: FileIdentity, content: AsyncIterable<Buffer>, compression: 'gzip' | 'zstd', parent: string): Promise<ByteSource> {
  let dir: string | null = null;
  const cleanup = () => (dir ? rm(dir, { recursive: true, force: true }) : Promise.resolve());
  let target: string;
  const chunks = content[Symbol.asyncIterator]();
  try {
    const first = await chunks.next();
    dir = await mkdtemp(join(parent, 'renderdrop-blend-'));
    target = join(dir, 'scene.blend');
    await pipeline(resumed(first, chunks), createWriteStream(target));
  } catch (error) {
    await chunks.return?.().catch(() => undefined);
    await cleanup();
    throw unpackError(path, error);
  }
  const handle = await open(target, 'r');
  const { size } = await handle.stat();
  return new FileByteSource(path, handle, size, identity, { compression, onClose: cleanup, contentPath: target });
}

async function* resumed(first: IteratorResult<Buffer>, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (first.done) return;
  yield first.value;
  yield* { [Symbol.asyncIterator]: () => rest };
}

/** An error met while unpacking `path` as the BlendFileError it stands for. */
function unpackError(path: string, error: unknown): BlendFileError {
  if (error instanceof BlendFileError) return error;
  if (isFileSystemError(error)) return fileSystemError(path, error);
  const detail = error instanceof Error ? error.message : String(error);
  if (/unexpected end|truncated/i.test(detail)) return truncatedError(path, 'its compressed data ends early');
  return corruptError(path, `its compressed data cannot be unpacked (${detail})`);
}

function isFileSystemError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'syscall' in error;
}
