import type { FileHandle } from 'node:fs/promises';

/** Random-access reads of a file of known size; reads past the end come back short. */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
}

/** A byte source over an open file. */
export function fileByteSource(handle: FileHandle, size: number): ByteSource {
  return {
    size,
    async read(offset, length) {
      const wanted = Math.max(0, Math.min(length, size - offset));
      const buffer = Buffer.alloc(wanted);
      let done = 0;
      while (done < wanted) {
        const { bytesRead } = await handle.read(buffer, done, wanted - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === wanted ? buffer : buffer.subarray(0, done);
    },
  };
}

/** A byte source over bytes in memory (tests, small files). */
export function bufferByteSource(bytes: Buffer): ByteSource {
  return { size: bytes.length, read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)) };
}

/**
 * Reads a byte source front to back in blocks, for formats that can only be checked by walking their
 * data (run-length encodings). `u8` returns -1 at the end.
 */
export class SequentialReader {
  private block: Buffer = Buffer.alloc(0);
  private blockStart = 0;
  private position: number;

  constructor(
    private readonly source: ByteSource,
    start: number,
    private readonly blockSize = 1024 * 1024,
  ) {
    this.position = start;
  }

  get offset(): number {
    return this.position;
  }

  async u8(): Promise<number> {
    const inBlock = this.position - this.blockStart;
    if (inBlock < 0 || inBlock >= this.block.length) {
      if (this.position >= this.source.size) return -1;
      this.block = await this.source.read(this.position, this.blockSize);
      this.blockStart = this.position;
    }
    const value = this.block[this.position - this.blockStart];
    this.position++;
    return value ?? -1;
  }

  /** Move forward `n` bytes; false when that passes the end of the data. */
  skip(n: number): boolean {
    this.position += n;
    return this.position <= this.source.size;
  }
}
