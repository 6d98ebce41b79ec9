import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { BlendCompression, ByteSource, FileIdentity } from './byte-source';

const STREAM_CHUNK = 1024 * 1024;

/** Reads an uncompressed file by offset through an open handle. */
export class FileByteSource implements ByteSource {
  readonly compression: BlendCompression;

  constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    readonly size: number,
    readonly identity: FileIdentity,
    options: { compression?: BlendCompression; onClose?: () => Promise<void>; contentPath?: string } = {},
  ) {
    this.compression = options.compression ?? 'none';
    this.onClose = options.onClose ?? null;
    this.contentPath = options.contentPath ?? path;
  }

  private readonly onClose: (() => Promise<void>) | null;
  /** The file holding the bytes (a decompressed copy for compressed files). */
  private readonly contentPath: string;

  async read(offset: number, length: number): Promise<Buffer> {
    const wanted = Math.max(0, Math.min(length, this.size - offset));
    const buffer = Buffer.allocUnsafe(wanted);
    let done = 0;
    while (done < wanted) {
      const { bytesRead } = await this.handle.read(buffer, done, wanted - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === wanted ? buffer : buffer.subarray(0, done);
  }

  stream(): Readable {
    return createReadStream(this.contentPath, { highWaterMark: STREAM_CHUNK });
  }

  async close(): Promise<void> {
    await this.handle.close();
    if (this.onClose) await this.onClose();
  }
}
