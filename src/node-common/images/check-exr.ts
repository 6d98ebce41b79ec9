import type { RandomAccessBytes } from './random-access-bytes';
import type { StructureProblem } from './structure-problem';

const TILED = 0x200;
const DEEP = 0x800;
const MULTIPART = 0x1000;

/** Scanlines per chunk of each OpenEXR compression (by its code). */
const LINES_PER_CHUNK = [1, 1, 1, 16, 32, 16, 32, 32, 32, 256];

interface PartHeader {
  width: number;
  height: number;
  compression: number;
  tiled: boolean;
  deep: boolean;
  tile: { x: number; y: number; oneLevel: boolean } | null;
  chunkCount: number | null;
}

/** Reads the header attributes of an OpenEXR file, one part after another. */
class HeaderReader {
  constructor(
    private readonly bytes: Buffer,
    public offset: number,
  ) {}

  string(): string {
    const end = this.bytes.indexOf(0, this.offset);
    if (end === -1) throw new RangeError('unterminated name');
    const value = this.bytes.subarray(this.offset, end).toString('latin1');
    this.offset = end + 1;
    return value;
  }

  /** The attributes of one header; null at the empty name that ends a multi-part header list. */
  part(versionFlags: number): PartHeader | null {
    const header: PartHeader = { width: 0, height: 0, compression: 0, tiled: (versionFlags & TILED) !== 0, deep: (versionFlags & DEEP) !== 0, tile: null, chunkCount: null };
    let attributes = 0;
    for (;;) {
      const name = this.string();
      if (name === '') return attributes === 0 ? null : header;
      attributes++;
      const type = this.string();
      const size = this.bytes.readInt32LE(this.offset);
      const value = this.offset + 4;
      if (size < 0 || value + size > this.bytes.length) throw new RangeError('attribute runs past the header');
      if (name === 'dataWindow' && type === 'box2i') {
        header.width = this.bytes.readInt32LE(value + 8) - this.bytes.readInt32LE(value) + 1;
        header.height = this.bytes.readInt32LE(value + 12) - this.bytes.readInt32LE(value + 4) + 1;
      } else if (name === 'compression') {
        header.compression = this.bytes.readUInt8(value);
      } else if (name === 'tiles' && type === 'tiledesc') {
        header.tile = { x: this.bytes.readUInt32LE(value), y: this.bytes.readUInt32LE(value + 4), oneLevel: (this.bytes.readUInt8(value + 8) & 0x0f) === 0 };
      } else if (name === 'chunkCount') {
        header.chunkCount = this.bytes.readInt32LE(value);
      } else if (name === 'type' && type === 'string') {
        const kind = this.bytes.subarray(value, value + size).toString('latin1');
        header.tiled = kind.includes('tile');
        header.deep = kind.startsWith('deep');
      }
      this.offset = value + size;
    }
  }
}

/** How many chunks (and so offset table entries) a part has, when its header tells. */
function chunkCount(part: PartHeader): number | null {
  if (part.chunkCount !== null) return part.chunkCount;
  if (part.width <= 0 || part.height <= 0) return null;
  if (!part.tiled) return Math.ceil(part.height / (LINES_PER_CHUNK[part.compression] ?? 1));
  if (part.tile?.oneLevel && part.tile.x > 0 && part.tile.y > 0) return Math.ceil(part.width / part.tile.x) * Math.ceil(part.height / part.tile.y);
  return null;
}

/**
 * An OpenEXR file is whole when every entry of its chunk offset table points inside the file and the
 * last chunk's data ends inside it. Blender writes the table last, so a file cut short by a full disk
 * has zeros there or chunks past its end.
 */
export async function checkExr(source: RandomAccessBytes, head: Buffer): Promise<StructureProblem> {
  const flags = head.readUInt32LE(4) & 0xffffff00;
  const multipart = (flags & MULTIPART) !== 0;
  let headerBytes = await source.read(0, Math.min(source.size, 64 * 1024));
  let reader: HeaderReader;
  const parts: PartHeader[] = [];
  for (let attempt = 0; ; attempt++) {
    reader = new HeaderReader(headerBytes, 8);
    parts.length = 0;
    try {
      for (;;) {
        const part = reader.part(flags);
        if (part) parts.push(part);
        if (!multipart || !part) break;
      }
      break;
    } catch (err) {
      if (!(err instanceof RangeError) || headerBytes.length >= source.size || attempt > 4) return 'its header is cut short';
      headerBytes = await source.read(0, Math.min(source.size, headerBytes.length * 8));
    }
  }
  if (parts.length === 0) return 'it has no image header';
  const tableStart = reader.offset;
  const counts = parts.map(chunkCount);
  let entries: number;
  if (counts.every((c): c is number => c !== null && c > 0)) {
    entries = counts.reduce((a, b) => a + b, 0);
  } else {
    const first = await source.read(tableStart, 8);
    if (first.length < 8) return 'its chunk table is missing';
    entries = (Number(first.readBigUInt64LE(0)) - tableStart) / 8;
    if (!Number.isInteger(entries) || entries <= 0) return 'its chunk table is not filled in';
  }
  const tableEnd = tableStart + entries * 8;
  if (tableEnd > source.size) return 'its chunk table runs past the end of the file';
  const table = await source.read(tableStart, entries * 8);
  let last = 0;
  for (let i = 0; i < entries; i++) {
    const offset = Number(table.readBigUInt64LE(i * 8));
    if (offset < tableEnd || offset >= source.size) return `chunk ${i} is ${offset === 0 ? 'not filled in' : 'outside the file'}`;
    last = Math.max(last, offset);
  }
  const partOfLast = multipart ? (await source.read(last, 4)).readInt32LE(0) : 0;
  const part = parts[partOfLast];
  if (!part) return 'its last chunk names a part that does not exist';
  if (part.deep) return null;
  const sizeAt = last + (multipart ? 4 : 0) + (part.tiled ? 16 : 4);
  const sizeBytes = await source.read(sizeAt, 4);
  if (sizeBytes.length < 4) return 'its last chunk is cut short';
  const end = sizeAt + 4 + sizeBytes.readInt32LE(0);
  return end <= source.size ? null : `its last chunk ends at byte ${end}, past the end of the file (${source.size} bytes)`;
}
