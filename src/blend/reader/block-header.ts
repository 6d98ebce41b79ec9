import type { BlendHeader } from './blend-header';

/** One block header: what the block holds and where its data is. */
export interface BlockHeader {
  /** Four-character code as a number (first character in the high byte): see {@link blockCode}. */
  code: number;
  /** Index of the block's struct in the SDNA (0 for raw data in DATA blocks). */
  sdnaIndex: number;
  /** The address the data had when Blender wrote it (high and low 32 bits); pointers in other blocks refer to it. */
  pointerHigh: number;
  pointerLow: number;
  /** Bytes of data after the header. */
  length: number;
  /** Number of structs in the block. */
  count: number;
}

/** The numeric form of a block code such as `DATA` or `IM` (padded with NULs). */
export function blockCode(text: string): number {
  const padded = text.padEnd(4, '\0');
  return ((padded.charCodeAt(0) << 24) | (padded.charCodeAt(1) << 16) | (padded.charCodeAt(2) << 8) | padded.charCodeAt(3)) >>> 0;
}

/** The text of a numeric block code, without trailing NULs (`IM`, `DATA`). */
export function codeText(code: number): string {
  return String.fromCharCode(code >>> 24, (code >>> 16) & 0xff, (code >>> 8) & 0xff, code & 0xff).replace(/\0+$/, '');
}

/** Decode the block header at `at` of `view` (which holds at least `header.blockHeaderSize` bytes there). */
export function parseBlockHeader(view: DataView, header: BlendHeader, at = 0): BlockHeader {
  const le = header.littleEndian;
  const code = view.getUint32(at, false);
  if (header.blockHeaderSize === 32) {
    return {
      code,
      sdnaIndex: view.getInt32(at + 4, le),
      pointerHigh: view.getUint32(at + (le ? 12 : 8), le),
      pointerLow: view.getUint32(at + (le ? 8 : 12), le),
      length: Number(view.getBigInt64(at + 16, le)),
      count: Number(view.getBigInt64(at + 24, le)),
    };
  }
  if (header.blockHeaderSize === 24) {
    return {
      code,
      length: view.getInt32(at + 4, le),
      pointerHigh: view.getUint32(at + (le ? 12 : 8), le),
      pointerLow: view.getUint32(at + (le ? 8 : 12), le),
      sdnaIndex: view.getInt32(at + 16, le),
      count: view.getInt32(at + 20, le),
    };
  }
  return { code, length: view.getInt32(at + 4, le), pointerHigh: 0, pointerLow: view.getUint32(at + 8, le), sdnaIndex: view.getInt32(at + 12, le), count: view.getInt32(at + 16, le) };
}

/** Offset of the length field inside a block header, and its size (to rewrite a block's length). */
export function lengthField(header: Pick<BlendHeader, 'blockHeaderSize'>): { offset: number; size: 4 | 8 } {
  return header.blockHeaderSize === 32 ? { offset: 16, size: 8 } : { offset: 4, size: 4 };
}
