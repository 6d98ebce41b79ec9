import { createHash } from 'node:crypto';
import { CHUNKING } from '../../shared/api';

/** Sizes of the chunks a chunker cuts: never under `minBytes` (but the last), never over `maxBytes`, `avgBytes` on average (a power of two). */
export interface ChunkerLimits {
  minBytes: number;
  avgBytes: number;
  maxBytes: number;
}

/**
 * The gear table: one pseudo-random 32-bit value per byte value, derived from SHA-256 so that every
 * build of Renderdrop cuts the same bytes at the same places.
 */
const GEAR = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) table[i] = createHash('sha256').update(`renderdrop gear ${i}`).digest().readUInt32BE(0);
  return table;
})();

/** A mask of the `bits` highest bits: those of a gear hash that depend on the most recent bytes the longest. */
const topBits = (bits: number) => (0xffffffff << (32 - bits)) >>> 0;

/**
 * A content-defined chunker in the manner of FastCDC (Xia et al., USENIX ATC'16): a rolling gear hash
 * (`hash = (hash << 1) + GEAR[byte]`, so a cut depends only on the last 32 bytes), no cut judged in the
 * first `minBytes` of a chunk, and normalized chunking: a mask two bits harder before the average size
 * and two bits easier after it, which keeps chunk sizes close to the average. Because a cut depends
 * only on the bytes just before it, a byte inserted or removed changes the chunks around it and the
 * cuts after it fall in the same places again.
 *
 * Streaming: feed the bytes in pieces of any size to {@link cuts}; the chunk in progress carries over.
 */
export class GearChunker {
  readonly #min: number;
  readonly #avg: number;
  readonly #max: number;
  readonly #maskSmall: number;
  readonly #maskLarge: number;
  #hash = 0;
  #length = 0;

  constructor(limits: ChunkerLimits = CHUNKING) {
    const bits = Math.log2(limits.avgBytes);
    if (!Number.isInteger(bits) || limits.minBytes <= 0 || limits.minBytes >= limits.avgBytes || limits.avgBytes >= limits.maxBytes) {
      throw new RangeError('Chunk limits need 0 < min < avg < max with avg a power of two.');
    }
    this.#min = limits.minBytes;
    this.#avg = limits.avgBytes;
    this.#max = limits.maxBytes;
    this.#maskSmall = topBits(bits + 2);
    this.#maskLarge = topBits(bits - 2);
  }

  /** Bytes of the chunk in progress (not yet cut). */
  get pending(): number {
    return this.#length;
  }

  /**
   * Where chunks end inside `data` (offsets into it, each just past a chunk's last byte), continuing
   * the chunk in progress from earlier pieces. The bytes after the last cut stay in progress.
   */
  cuts(data: Uint8Array): number[] {
    const found: number[] = [];
    const n = data.length;
    let i = 0;
    let length = this.#length;
    let hash = this.#hash;
    while (i < n) {
      if (length < this.#min) {
        const skip = Math.min(this.#min - length, n - i);
        i += skip;
        length += skip;
        continue;
      }
      let cut = false;
      while (i < n) {
        hash = ((hash << 1) + GEAR[data[i]!]!) >>> 0;
        i++;
        length++;
        if ((hash & (length < this.#avg ? this.#maskSmall : this.#maskLarge)) === 0 || length >= this.#max) {
          cut = true;
          break;
        }
      }
      if (cut) {
        found.push(i);
        length = 0;
        hash = 0;
      }
    }
    this.#length = length;
    this.#hash = hash;
    return found;
  }

  /** Ends the input: the size of the last chunk (0 when none is in progress); the chunker starts afresh. */
  finish(): number {
    const last = this.#length;
    this.#length = 0;
    this.#hash = 0;
    return last;
  }
}
