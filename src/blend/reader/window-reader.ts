import type { ByteSource } from './byte-source';

/** Size of each window read from the file. */
export const WINDOW_BYTES = 256 * 1024;
const WINDOWS_KEPT = 8;

/** A cached window of the decompressed content. */
export interface Window {
  start: number;
  data: Buffer;
  view: DataView;
}

/**
 * Reads a .blend's content through a few cached windows: block headers are scanned and small blocks
 * (IDs and their data sit next to each other) read with a handful of reads, whatever the file's size.
 */
export class WindowReader {
  private readonly windows: Window[] = [];

  constructor(private readonly source: ByteSource) {}

  /** A window holding at least `length` bytes from `offset` (fewer only at the end of the content). */
  async windowAt(offset: number, length: number): Promise<Window> {
    const hit = this.windows.find((w) => offset >= w.start && offset + length <= w.start + w.data.length);
    if (hit) return hit;
    const data = await this.source.read(offset, Math.max(WINDOW_BYTES, length));
    const window = { start: offset, data, view: new DataView(data.buffer, data.byteOffset, data.length) };
    this.windows.unshift(window);
    this.windows.length = Math.min(this.windows.length, WINDOWS_KEPT);
    return window;
  }

  /** `length` bytes from `offset`: through the windows when small, directly when large. */
  async read(offset: number, length: number): Promise<Buffer> {
    if (length > WINDOW_BYTES / 4) return this.source.read(offset, length);
    const window = await this.windowAt(offset, length);
    return window.data.subarray(offset - window.start, offset - window.start + length);
  }

  clear(): void {
    this.windows.length = 0;
  }
}
