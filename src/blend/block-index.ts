import { corruptError, truncatedError } from './blend-file-error';
import { MAX_HEADER_BYTES, parseBlendHeader, type BlendHeader } from './blend-header';
import { parseBlockHeader } from './block-header';
import type { ByteSource } from './byte-source';

/**
 * Every block of a .blend in compact arrays (a few dozen bytes per block, whatever the block sizes),
 * with old pointers sorted for lookup.
 */
export interface BlockIndex {
  header: BlendHeader;
  count: number;
  codes: string[];
  sdnaIndex: Int32Array;
  /** Offset of each block's header in the decompressed content. */
  headerOffset: Float64Array;
  /** Offset of each block's data. */
  dataOffset: Float64Array;
  length: Float64Array;
  structCount: Float64Array;
  oldPointer: BigUint64Array;
  /** For each block, the index of the ID block whose data it belongs to (itself for an ID block, -1 before any). */
  owner: Int32Array;
  /** Block indices sorted by old pointer. */
  byPointer: Int32Array;
  /** Decompressed size up to and including the ENDB block. */
  endOffset: number;
}

const WINDOW = 256 * 1024;
/** Codes of blocks that are not IDs (everything else starts an ID: `IM\0\0`, `OB\0\0`, ...). */
export const NON_ID_CODES = new Set(['DATA', 'DNA1', 'ENDB', 'REND', 'TEST', 'GLOB', 'USER']);

/** Read the header and every block header of `source`, skipping block data. */
export async function scanBlocks(source: ByteSource): Promise<BlockIndex> {
  const first = await source.read(0, MAX_HEADER_BYTES);
  const header = parseBlendHeader(first, source.path);
  const codes: string[] = [];
  const sdna: number[] = [];
  const headerOffsets: number[] = [];
  const lengths: number[] = [];
  const counts: number[] = [];
  const pointers: bigint[] = [];
  let windowStart = 0;
  let window: Buffer = Buffer.alloc(0);
  let at = header.headerSize;
  const size = header.blockHeaderSize;
  for (;;) {
    if (at + size > windowStart + window.length) {
      windowStart = at;
      window = await source.read(at, WINDOW);
      if (window.length < size) {
        throw truncatedError(source.path, at >= source.size ? 'it ends before its last block' : 'it ends inside a block header');
      }
    }
    const local = at - windowStart;
    const block = parseBlockHeader(window, header, local);
    if (block.code === 'ENDB') {
      return finish(header, { codes, sdna, headerOffsets, lengths, counts, pointers }, at + size);
    }
    if (!plausibleCode(block.code) || block.length < 0 || block.count < 0 || block.sdnaIndex < 0) {
      throw corruptError(source.path, `the block at byte ${at} is not valid`);
    }
    const end = at + size + block.length;
    if (end > source.size) throw truncatedError(source.path, `its block at byte ${at} runs past the end of the file`);
    codes.push(block.code);
    sdna.push(block.sdnaIndex);
    headerOffsets.push(at);
    lengths.push(block.length);
    counts.push(block.count);
    pointers.push(block.oldPointer);
    at = end;
  }
}

/** Block codes are two printable characters, then two more or NULs (`IM\0\0`, `DATA`). */
function plausibleCode(code: string): boolean {
  for (let i = 0; i < 4; i++) {
    const c = code.charCodeAt(i);
    if (!((c >= 0x20 && c <= 0x7e) || (i >= 2 && c === 0))) return false;
  }
  return true;
}

interface Collected {
  codes: string[];
  sdna: number[];
  headerOffsets: number[];
  lengths: number[];
  counts: number[];
  pointers: bigint[];
}

function finish(header: BlendHeader, c: Collected, endOffset: number): BlockIndex {
  const count = c.codes.length;
  const headerOffset = Float64Array.from(c.headerOffsets);
  const dataOffset = headerOffset.map((offset) => offset + header.blockHeaderSize);
  const oldPointer = BigUint64Array.from(c.pointers);
  const owner = new Int32Array(count);
  let current = -1;
  for (let i = 0; i < count; i++) {
    if (!NON_ID_CODES.has(c.codes[i]!)) current = i;
    else if (c.codes[i] !== 'DATA') current = -1;
    owner[i] = current;
  }
  const approximate = Float64Array.from(c.pointers, (p) => Number(p));
  const byPointer = Int32Array.from({ length: count }, (_, i) => i).sort((a, b) => {
    const byValue = approximate[a]! - approximate[b]!;
    if (byValue !== 0) return byValue;
    const pa = oldPointer[a]!;
    const pb = oldPointer[b]!;
    return pa < pb ? -1 : pa > pb ? 1 : a - b;
  });
  return {
    header,
    count,
    codes: c.codes,
    sdnaIndex: Int32Array.from(c.sdna),
    headerOffset,
    dataOffset,
    length: Float64Array.from(c.lengths),
    structCount: Float64Array.from(c.counts),
    oldPointer,
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
  const sorted = index.byPointer;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (index.oldPointer[sorted[mid]!]! < pointer) lo = mid + 1;
    else hi = mid;
  }
  let found = -1;
  const owner = fromBlock >= 0 ? index.owner[fromBlock]! : -2;
  for (let i = lo; i < sorted.length && index.oldPointer[sorted[i]!] === pointer; i++) {
    const block = sorted[i]!;
    if (found < 0) found = block;
    if (index.owner[block] === owner) return block;
  }
  return found;
}
