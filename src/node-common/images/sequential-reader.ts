import type { RandomAccessBytes } from './random-access-bytes';

/**
 * Reads random-access bytes front to back in blocks, for formats that can only be checked by walking
 * their data (run-length encodings). `u8` returns -1 at the end.
 */
export class SequentialReader {
  private block: Buffer = Buffer.alloc(0);
  private blockStart = 0;
  private position: number;

  constructor(
    private readonly source: RandomAccessBytes,
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
