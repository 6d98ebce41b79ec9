import type { Readable } from 'node:stream';

/** How a .blend is stored on disk. */
export type BlendCompression = 'none' | 'gzip' | 'zstd';

/** What identifies the file on disk and tells whether it changed. */
export interface FileIdentity {
  dev: number;
  ino: number;
  mtimeMs: number;
}

/**
 * Random access to the bytes of a .blend as Blender reads them (decompressed), without holding the
 * file in memory.
 */
export interface ByteSource {
  /** The file on disk. */
  readonly path: string;
  /** Size of the decompressed content in bytes. */
  readonly size: number;
  readonly compression: BlendCompression;
  /** The file on disk as it was when opened. */
  readonly identity: FileIdentity;
  /** `length` bytes from `offset` (fewer when the content ends first). */
  read(offset: number, length: number): Promise<Buffer>;
  /** The whole decompressed content from its first byte, streamed. */
  stream(): Readable;
  close(): Promise<void>;
}
