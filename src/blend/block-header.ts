import type { BlendHeader } from './blend-header';

/** One block header: what the block holds and where its data is. */
export interface BlockHeader {
  /** Four-character code: `DATA`, `DNA1`, `ENDB`, or an ID code such as `IM\0\0`. */
  code: string;
  /** Index of the block's struct in the SDNA (0 for raw data in DATA blocks). */
  sdnaIndex: number;
  /** The address the data had when Blender wrote it; pointers in other blocks refer to it. */
  oldPointer: bigint;
  /** Bytes of data after the header. */
  length: number;
  /** Number of structs in the block. */
  count: number;
}

/** Decode the block header at `at` in `bytes` (which holds at least `header.blockHeaderSize` bytes there). */
export function parseBlockHeader(bytes: Buffer, header: BlendHeader, at = 0): BlockHeader {
  const le = header.littleEndian;
  const int32 = (offset: number) => (le ? bytes.readInt32LE(at + offset) : bytes.readInt32BE(at + offset));
  const int64 = (offset: number) => Number(le ? bytes.readBigInt64LE(at + offset) : bytes.readBigInt64BE(at + offset));
  const pointer64 = () => (le ? bytes.readBigUInt64LE(at + 8) : bytes.readBigUInt64BE(at + 8));
  const code = bytes.toString('latin1', at, at + 4);
  if (header.blockHeaderSize === 32) return { code, sdnaIndex: int32(4), oldPointer: pointer64(), length: int64(16), count: int64(24) };
  if (header.blockHeaderSize === 24) return { code, length: int32(4), oldPointer: pointer64(), sdnaIndex: int32(16), count: int32(20) };
  const oldPointer = BigInt(le ? bytes.readUInt32LE(at + 8) : bytes.readUInt32BE(at + 8));
  return { code, length: int32(4), oldPointer, sdnaIndex: int32(12), count: int32(16) };
}

/** Offset of the length field inside a block header, and its size (to rewrite a block's length). */
export function lengthField(header: Pick<BlendHeader, 'blockHeaderSize'>): { offset: number; size: 4 | 8 } {
  return header.blockHeaderSize === 32 ? { offset: 16, size: 8 } : { offset: 4, size: 4 };
}
