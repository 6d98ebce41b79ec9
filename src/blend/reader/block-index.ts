import { corruptError, truncatedError } from './blend-file-error';
import { MAX_HEADER_BYTES, parseBlendHeader, type BlendHeader } from './blend-header';
import { blockCode, parseBlockHeader } from './block-header';
import type { ByteSource } from './byte-source';
import { WindowReader, type Window } from './window-reader';

/**
 * Every block of a .blend in compact arrays (a few dozen bytes per block, whatever the block sizes),
 * with old pointers sorted for lookup.
 */
export interface BlockIndex {
  header: BlendHeader;
  count: number;
  /** Numeric block codes (see `blockCode`). */
  codes: Uint32Array;
  sdnaIndex: Int32Array;
  /** Offset of each block's header in the decompressed content. */
  headerOffset: Float64Array;
  /** Offset of each block's data. */
  dataOffset: Float64Array;
  length: Float64Array;
  structCount: Float64Array;
  /** High and low 32 bits of the address each block had when written. */
  pointerHigh: Uint32Array;
  pointerLow: Uint32Array;
  /** For each block, the index of the ID block whose data it belongs to (itself for an ID block, -1 before any). */
  owner: Int32Array;
  /** Block indices sorted by old pointer. */
  byPointer: Int32Array;
  /** Decompressed size up to and including the ENDB block. */
  endOffset: number;
}

export const CODE_DATA = blockCode('DATA');
export const CODE_DNA = blockCode('DNA1');
const CODE_END = blockCode('ENDB');
/** Codes of blocks that are not IDs (everything else starts an ID: `IM\0\0`, `OB\0\0`, ...). */
const NON_ID_CODES = new Set(['DATA', 'DNA1', 'ENDB', 'REND', 'TEST', 'GLOB', 'USER'].map(blockCode));

/** Whether a block starts a data-block (an ID such as an image or an object). */
export function isIdCode(code: number): boolean {
  return !NON_ID_CODES.has(code);
}

/** Growable typed columns, so scanning allocates per window, not per block. */
class Columns {
  size = 0;
  codes = new Uint32Array(1024);
  sdna = new Int32Array(1024);
  headerOffset = new Float64Array(1024);
  length = new Float64Array(1024);
  count = new Float64Array(1024);
  high = new Uint32Array(1024);
  low = new Uint32Array(1024);

  push(code: number, sdna: number, at: number, length: number, count: number, high: number, low: number): void {
    if (this.size === this.codes.length) this.grow();
    const i = this.size++;
    this.codes[i] = code;
    this.sdna[i] = sdna;
    this.headerOffset[i] = at;
    this.length[i] = length;
    this.count[i] = count;
    this.high[i] = high;
    this.low[i] = low;
  }

  private grow(): void {
    const n = this.codes.length * 2;
    const copy = <T extends Uint32Array | Int32Array | Float64Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.codes = copy(this.codes, new Uint32Array(n));
    this.sdna = copy(this.sdna, new Int32Array(n));
    this.headerOffset = copy(this.headerOffset, new Float64Array(n));
    this.length = copy(this.length, new Float64Array(n));
    this.count = copy(this.count, new Float64Array(n));
    this.high = copy(this.high, new Uint32Array(n));
    this.low = copy(this.low, new Uint32Array(n));
  }
}

/** Read the header and every block header of `source` (through `reader`), skipping block data. */
export async function scanBlocks(source: ByteSource, reader: WindowReader = new WindowReader(source)): Promise<BlockIndex> {
  const first = await reader.read(0, MAX_HEADER_BYTES);
  const header = parseBlendHeader(first, source.path);
  const columns = new Columns();
  const size = header.blockHeaderSize;
  let window: Window = { start: 0, data: Buffer.alloc(0), view: new DataView(new ArrayBuffer(0)) };
  let at = header.headerSize;
  for (;;) {
    if (at + size > window.start + window.data.length) {
      window = await reader.windowAt(at, size);
      if (at + size > window.start + window.data.length) {
        throw truncatedError(source.path, at >= source.size ? 'it ends before its last block' : 'it ends inside a block header');
      }
    }
    const block = parseBlockHeader(window.view, header, at - window.start);
    if (block.code === CODE_END) return finish(header, columns, at + size);
    if (!plausibleCode(block.code) || block.length < 0 || block.count < 0 || block.sdnaIndex < 0) {
      throw corruptError(source.path, `the block at byte ${at} is not valid`);
    }
    const end = at + size + block.length;
    if (end > source.size) throw truncatedError(source.path, `its block at byte ${at} runs past the end of the file`);
    columns.push(block.code, block.sdnaIndex, at, block.length, block.count, block.pointerHigh, block.pointerLow);
    at = end;
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

function finish(header: BlendHeader, c: Columns, endOffset: number): BlockIndex {
  const count = c.size;
  const headerOffset = c.headerOffset.slice(0, count);
  const dataOffset = headerOffset.map((offset) => offset + header.blockHeaderSize);
  const codes = c.codes.slice(0, count);
  const pointerHigh = c.high.slice(0, count);
  const pointerLow = c.low.slice(0, count);
  const owner = new Int32Array(count);
  let current = -1;
  for (let i = 0; i < count; i++) {
    if (isIdCode(codes[i]!)) current = i;
    else if (codes[i] !== CODE_DATA) current = -1;
    owner[i] = current;
  }
  const byPointer = Int32Array.from({ length: count }, (_, i) => i).sort((a, b) => pointerHigh[a]! - pointerHigh[b]! || pointerLow[a]! - pointerLow[b]! || a - b);
  return {
    header,
    count,
    codes,
    sdnaIndex: c.sdna.slice(0, count),
    headerOffset,
    dataOffset,
    length: c.length.slice(0, count),
    structCount: c.count.slice(0, count),
    pointerHigh,
    pointerLow,
    owner,
    byPointer,
    endOffset,
  };
}

/**
 * The block an old pointer refers to. Data blocks of different IDs may share addresses (Blender 4.2+
 * only keeps them unique within one ID), so the block owned by `fromBlock`'s ID wins; -1 when none.
 */
export function blockForPointer(index: BlockIndex, pointer: bigint, fromBlock = -1): number {
  if (pointer === 0n) return -1;
  const high = Number(pointer >> 32n);
  const low = Number(pointer & 0xffffffffn);
  const sorted = index.byPointer;
  const compare = (block: number) => index.pointerHigh[block]! - high || index.pointerLow[block]! - low;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(sorted[mid]!) < 0) lo = mid + 1;
    else hi = mid;
  }
  let found = -1;
  const owner = fromBlock >= 0 ? index.owner[fromBlock]! : -2;
  for (let i = lo; i < sorted.length && compare(sorted[i]!) === 0; i++) {
    const block = sorted[i]!;
    if (found < 0) found = block;
    if (index.owner[block] === owner) return block;
  }
  return found;
}
