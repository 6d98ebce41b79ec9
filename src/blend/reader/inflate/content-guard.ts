import { basename } from 'node:path';
import { formatBytes } from '../../../shared/text';
import { BlendFileError, corruptError } from '../blend-file-error';
import { MAX_HEADER_BYTES, parseBlendHeader, type BlendHeader } from '../blend-header';
import { blockCode, parseBlockHeader } from '../block-header';

/** Most a compressed .blend may unpack to before this reader refuses it (the render node's default limit). */
export const MAX_BLEND_CONTENT_BYTES = 20 * 1024 ** 3;

const CODE_END = blockCode('ENDB');
const MAGIC = Buffer.from('BLENDER');

/** A compressed .blend that unpacks to more than a limit; nothing past the limit was unpacked. */
export class BlendTooLargeError extends BlendFileError {
  readonly limitBytes: number;

  constructor(path: string, limitBytes: number) {
    super(
      'unsupported',
      path,
      `${basename(path)} unpacks to more than ${formatBytes(limitBytes)}, more than Renderdrop opens. Make the scene smaller, for example by moving assets into linked libraries (${path}).`,
    );
    this.name = 'BlendTooLargeError';
    this.limitBytes = limitBytes;
  }
}

/**
 * Checks the decompressed bytes of a .blend as they stream by, so unpacking stops at the first bad
 * byte: the first bytes must be a .blend header, the block headers that follow must be valid (up to
 * `ENDB`), and the content must stay within `maxBytes`. Throws a BlendFileError naming the file.
 * A header of a layout this reader does not know is let through unwalked (Blender may know it).
 */
export class ContentGuard {
  /** Bytes seen so far. */
  bytes = 0;
  private head: Buffer | null = Buffer.alloc(0);
  private header: BlendHeader | null = null;
  private walking = false;
  private next = 0;
  private pending = Buffer.alloc(0);

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
  ) {}

  /** Check the next chunk of content (in order). */
  check(chunk: Buffer): void {
    const start = this.bytes;
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) throw new BlendTooLargeError(this.path, this.maxBytes);
    if (this.head) {
      this.head = Buffer.concat([this.head, chunk]);
      const prefix = this.head.subarray(0, MAGIC.length);
      if (!MAGIC.subarray(0, prefix.length).equals(prefix)) parseBlendHeader(this.head, this.path);
      if (this.head.length >= MAX_HEADER_BYTES) this.readHeader();
      return;
    }
    if (this.walking) this.walk(chunk, start);
  }

  /** The content ended: throws when it ended inside the header. */
  end(): void {
    if (this.head) this.readHeader();
  }

  private readHeader(): void {
    const bytes = this.head!;
    this.head = null;
    try {
      this.header = parseBlendHeader(bytes, this.path);
    } catch (error) {
      if (error instanceof BlendFileError && error.code === 'unsupported') return;
      throw error;
    }
    this.walking = true;
    this.next = this.header.headerSize;
    this.walk(bytes, 0);
  }

  private walk(chunk: Buffer, start: number): void {
    const size = this.header!.blockHeaderSize;
    let pos = Math.max(0, this.next - start);
    while (this.walking && pos < chunk.length) {
      let bytes: Buffer;
      if (this.pending.length === 0 && pos + size <= chunk.length) {
        bytes = chunk.subarray(pos, pos + size);
      } else {
        const piece = chunk.subarray(pos, pos + size - this.pending.length);
        this.pending = Buffer.concat([this.pending, piece]);
        if (this.pending.length < size) return;
        bytes = this.pending;
        this.pending = Buffer.alloc(0);
      }
      this.step(bytes);
      pos = this.next - start;
    }
  }

  /** Judge the block header at `this.next` and move past its block. */
  private step(bytes: Buffer): void {
    const block = parseBlockHeader(new DataView(bytes.buffer, bytes.byteOffset, bytes.length), this.header!, 0);
    const at = this.next;
    if (block.code === CODE_END) {
      this.walking = false;
      return;
    }
    if (!plausibleCode(block.code) || block.length < 0 || block.count < 0 || block.sdnaIndex < 0) {
      throw corruptError(this.path, `the block at byte ${at} is not valid`);
    }
    this.next = at + bytes.length + block.length;
    if (this.next > this.maxBytes) throw new BlendTooLargeError(this.path, this.maxBytes);
  }
}

/** Block codes are two printable characters, then two more or NULs (`IM\0\0`, `DATA`). */
function plausibleCode(code: number): boolean {
  for (let i = 0; i < 4; i++) {
    const c = (code >>> (24 - i * 8)) & 0xff;
    if (!((c >= 0x20 && c <= 0x7e) || (i >= 2 && c === 0))) return false;
  }
  return true;
}

/** `content` passed through `guard`: each chunk is checked before it is handed on. */
export async function* guarded(content: AsyncIterable<unknown>, guard: ContentGuard): AsyncGenerator<Buffer> {
  for await (const chunk of content) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    guard.check(buffer);
    yield buffer;
  }
  guard.end();
}
