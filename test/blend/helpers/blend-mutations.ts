import { gzipSync, zstdCompressSync } from 'node:zlib';

/** A small seeded PRNG (mulberry32): the same seed gives the same mutations. */
export function seededRandom(seed: number): { next: () => number; int: (below: number) => number; pick: <T>(items: readonly T[]) => T } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return { next, int, pick: (items) => items[int(items.length)]! };
}

/** Where one block header of an uncompressed .blend lies, and its length field. */
export interface BlockSpot {
  at: number;
  code: string;
  headerSize: number;
  lengthOffset: number;
  lengthSize: 4 | 8;
  dataLength: number;
}

/** The block headers of an uncompressed, well-formed .blend, up to and including ENDB. */
export function blockSpots(bytes: Buffer): BlockSpot[] {
  const large = /^BLENDER\d\d-/.test(bytes.toString('latin1', 0, 10));
  const headerSize = large ? Number(bytes.toString('latin1', 7, 9)) : 12;
  const pointerSize = large ? 8 : bytes[7] === 0x5f ? 4 : 8;
  const littleEndian = large ? bytes[12] === 0x76 : bytes[8] === 0x76;
  const blockHeader = large ? 32 : pointerSize === 4 ? 20 : 24;
  const spots: BlockSpot[] = [];
  for (let at = headerSize; at + blockHeader <= bytes.length; ) {
    const code = bytes.toString('latin1', at, at + 4).replace(/\0+$/, '');
    const lengthOffset = large ? 16 : 4;
    const dataLength = large
      ? Number(littleEndian ? bytes.readBigInt64LE(at + 16) : bytes.readBigInt64BE(at + 16))
      : littleEndian ? bytes.readInt32LE(at + 4) : bytes.readInt32BE(at + 4);
    spots.push({ at, code, headerSize: blockHeader, lengthOffset, lengthSize: large ? 8 : 4, dataLength });
    if (code === 'ENDB') break;
    at += blockHeader + dataLength;
  }
  return spots;
}

function writeLength(bytes: Buffer, spot: BlockSpot, value: number, littleEndian: boolean): void {
  const at = spot.at + spot.lengthOffset;
  if (spot.lengthSize === 8) {
    if (littleEndian) bytes.writeBigInt64LE(BigInt(value), at);
    else bytes.writeBigInt64BE(BigInt(value), at);
  } else if (littleEndian) bytes.writeInt32LE(value | 0, at);
  else bytes.writeInt32BE(value | 0, at);
}

function isLittleEndian(bytes: Buffer): boolean {
  return /^BLENDER\d\d-/.test(bytes.toString('latin1', 0, 10)) ? bytes[12] === 0x76 : bytes[8] === 0x76;
}

/**
 * The probe's file: the ENDB block replaced by a block that claims more data than the file holds.
 * This reader refuses it; Blender stops reading there and opens the rest.
 */
export function endbReplacedByOverlongBlock(bytes: Buffer, code = 'DATA'): Buffer {
  const copy = Buffer.from(bytes);
  const end = blockSpots(copy).at(-1)!;
  copy.write(code.padEnd(4, '\0'), end.at, 'latin1');
  writeLength(copy, end, 1 << 20, isLittleEndian(copy));
  return copy;
}

type Random = ReturnType<typeof seededRandom>;

/** The start and end of the DNA1 block's data. */
function dnaSpan(bytes: Buffer): [number, number] | null {
  const spot = blockSpots(bytes).find((s) => s.code === 'DNA1');
  return spot ? [spot.at + spot.headerSize, spot.at + spot.headerSize + spot.dataLength] : null;
}

/** One kind of damage done to an uncompressed .blend. */
export const MUTATIONS: Record<string, (bytes: Buffer, random: Random) => Buffer> = {
  'bit flips': (bytes, random) => {
    const copy = Buffer.from(bytes);
    for (let n = 1 + random.int(8); n > 0; n--) {
      const at = random.int(copy.length);
      copy[at] = copy[at]! ^ (1 << random.int(8));
    }
    return copy;
  },
  truncation: (bytes, random) => bytes.subarray(0, random.int(bytes.length)),
  'block length': (bytes, random) => {
    const copy = Buffer.from(bytes);
    const spot = random.pick(blockSpots(copy));
    const values = [-1, 0, 1, spot.dataLength - 1, spot.dataLength + 1, spot.dataLength * 2, 0x7fffffff, -0x80000000, random.int(copy.length)];
    writeLength(copy, spot, random.pick(values), isLittleEndian(copy));
    return copy;
  },
  'block header bytes': (bytes, random) => {
    const copy = Buffer.from(bytes);
    const spot = random.pick(blockSpots(copy));
    const at = spot.at + 4 + random.int(spot.headerSize - 4);
    copy[at] = random.int(256);
    if (random.next() < 0.5) copy[at + 1 < copy.length ? at + 1 : at] = 0xff;
    return copy;
  },
  'ENDB replaced': (bytes, random) => endbReplacedByOverlongBlock(bytes, random.pick(['DATA', 'LI', 'IM', 'ENDX'])),
  'ENDB removed': (bytes) => bytes.subarray(0, blockSpots(bytes).at(-1)!.at),
  'SDNA bytes': (bytes, random) => {
    const copy = Buffer.from(bytes);
    const span = dnaSpan(copy);
    if (!span) return copy;
    for (let n = 1 + random.int(4); n > 0; n--) copy[span[0] + random.int(span[1] - span[0])] = random.int(256);
    return copy;
  },
  'SDNA array sizes': (bytes, random) => {
    const copy = Buffer.from(bytes);
    const span = dnaSpan(copy);
    if (!span) return copy;
    const brackets: number[] = [];
    for (let at = copy.indexOf(0x5b, span[0]); at >= 0 && at < span[1]; at = copy.indexOf(0x5b, at + 1)) brackets.push(at);
    if (brackets.length > 0) copy[random.pick(brackets) + 1] = random.pick([0x78, 0x5d, 0x2d, 0x30, 0x39]);
    return copy;
  },
  'SDNA struct table': (bytes, random) => {
    const copy = Buffer.from(bytes);
    const span = dnaSpan(copy);
    const strc = span ? copy.indexOf('STRC', span[0], 'latin1') : -1;
    if (strc < 0) return copy;
    const at = strc + 8 + 2 * random.int(Math.max(1, (span![1] - strc - 8) / 2));
    if (at + 2 <= copy.length) copy.writeUInt16LE(random.pick([0xffff, 0x7fff, random.int(65536), 0]), at);
    return copy;
  },
  'SDNA counts': (bytes, random) => {
    const copy = Buffer.from(bytes);
    const span = dnaSpan(copy);
    if (!span) return copy;
    const tag = random.pick(['NAME', 'TYPE', 'STRC']);
    const at = copy.indexOf(tag, span[0], 'latin1');
    if (at >= 0 && at + 8 <= copy.length) copy.writeInt32LE(random.pick([-1, 0, 0x7fffffff, random.int(100000)]), at + 4);
    return copy;
  },
  'sdna index': (bytes, random) => {
    const copy = Buffer.from(bytes);
    const spot = random.pick(blockSpots(copy));
    const at = spot.at + (spot.headerSize === 32 ? 4 : spot.headerSize - 8);
    copy.writeInt32LE(random.pick([-1, 0, 1, 2, 3, 1000, 0x7fffffff]), at);
    return copy;
  },
  'pointer size and byte order': (bytes, random) => {
    const copy = Buffer.from(bytes);
    if (/^BLENDER\d\d-/.test(copy.toString('latin1', 0, 10))) copy[random.pick([7, 8, 10, 12])] = random.pick([0x5f, 0x2d, 0x76, 0x56, 0x30, 0x39]);
    else copy[random.pick([7, 8])] = random.pick([0x5f, 0x2d, 0x76, 0x56]);
    return copy;
  },
};

/** A compressed wrapper Blender reads around a .blend: none, gzip or zstd; the compressed bytes may be damaged too. */
export function wrapped(bytes: Buffer, random: Random): { bytes: Buffer; wrapper: string } {
  const roll = random.next();
  if (roll < 0.7) return { bytes, wrapper: 'none' };
  const wrapper = roll < 0.85 ? 'gzip' : 'zstd';
  let packed = wrapper === 'gzip' ? gzipSync(bytes) : zstdCompressSync(bytes);
  const damage = random.next();
  if (damage < 0.2) packed = packed.subarray(0, random.int(packed.length));
  else if (damage < 0.4) {
    packed = Buffer.from(packed);
    const at = random.int(packed.length);
    packed[at] = packed[at]! ^ (1 << random.int(8));
  }
  return { bytes: packed, wrapper };
}
