import { crc32 } from 'node:zlib';

/** Where a zip is written: sequential writes that resolve when the bytes may be reused. */
export interface ZipSink {
  write(chunk: Buffer): Promise<void>;
}

/** How an entry's data is stored. */
export type ZipMethod = 'store' | 'deflate';

const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const END64 = 0x06064b50;
const LOCATOR64 = 0x07064b50;
const MAX32 = 0xffffffff;
const FLAGS = 0x0008 | 0x0800; // sizes in a data descriptor; UTF-8 names
/** 1980-01-01 00:00, the earliest DOS date: every entry gets it, so the same files give the same bytes. */
const DOS_DATE = (1 << 5) | 1;
const DOS_TIME = 0;
const MADE_BY_UNIX = 3 << 8;
const FILE_MODE = 0o100644;

interface Written {
  name: Buffer;
  method: ZipMethod;
  crc: number;
  compressed: number;
  uncompressed: number;
  offset: number;
  zip64: boolean;
}

/** Bytes the headers of one entry can take beside its name, twice written: local header and ZIP64 extra, data descriptor, central header and ZIP64 extra. */
const ENTRY_OVERHEAD = 30 + 20 + 24 + 46 + 28;
/** The end records: ZIP64 end record and locator, end of central directory. */
const END_OVERHEAD = 56 + 20 + 22;

/**
 * Most bytes raw deflate can make of `size` bytes: zlib's deflateBound for its default settings (stored
 * blocks where nothing compresses), without a zlib or gzip wrapper.
 */
export function deflateBound(size: number): number {
  return size + Math.floor(size / 4096) + Math.floor(size / 16384) + Math.floor(size / 33_554_432) + 7;
}

/**
 * An upper bound of the size of the zip {@link ZipWriter} writes for these entries (names, bytes, and
 * whether they may be deflated), known before a byte is read: each entry's data (its size, or the
 * deflate bound) plus the most its headers can take, plus the end records.
 */
export function zipSizeBound(entries: readonly { name: string; size: number; mayDeflate: boolean }[]): number {
  let total = END_OVERHEAD;
  for (const entry of entries) total += ENTRY_OVERHEAD + 2 * Buffer.byteLength(entry.name, 'utf8') + (entry.mayDeflate ? deflateBound(entry.size) : entry.size);
  return total;
}

/**
 * A streaming zip writer: entries are written one after another with their sizes and CRC in a data
 * descriptor, so nothing is held in memory; ZIP64 fields are used where sizes, offsets or the entry
 * count need them. Timestamps and attributes are fixed, so equal input gives equal bytes.
 */
export class ZipWriter {
  private readonly written: Written[] = [];
  private offset = 0;

  constructor(private readonly sink: ZipSink) {}

  /** Bytes written so far. */
  get size(): number {
    return this.offset;
  }

  /**
   * Write one entry from `data` (uncompressed chunks), compressing them when `compress` is given (a
   * function turning the stream into raw deflate). `expectedSize` decides whether ZIP64 fields are needed.
   */
  async addEntry(name: string, data: AsyncIterable<Buffer>, options: { method: ZipMethod; expectedSize: number; compress?: (raw: AsyncIterable<Buffer>) => AsyncIterable<Buffer> }): Promise<void> {
    const nameBytes = Buffer.from(name, 'utf8');
    const zip64 = options.expectedSize * 1.01 + 65_536 >= MAX32;
    const entry: Written = { name: nameBytes, method: options.method, crc: 0, compressed: 0, uncompressed: 0, offset: this.offset, zip64 };
    await this.emit(localHeader(entry));
    const counted = this.count(data, entry);
    const stored = options.method === 'deflate' && options.compress ? options.compress(counted) : counted;
    for await (const chunk of stored) {
      entry.compressed += chunk.length;
      await this.emit(chunk);
    }
    if (!zip64 && (entry.compressed >= MAX32 || entry.uncompressed >= MAX32)) {
      throw new Error(`The zip entry ${name} grew past 4 GiB although it was expected to be ${options.expectedSize} bytes.`);
    }
    await this.emit(descriptor(entry));
    this.written.push(entry);
  }

  /** Write the central directory and the end records. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const entry of this.written) await this.emit(centralHeader(entry));
    const size = this.offset - start;
    const count = this.written.length;
    if (count >= 0xffff || start >= MAX32 || size >= MAX32) {
      const end64At = this.offset;
      const record = Buffer.alloc(56);
      record.writeUInt32LE(END64, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE(MADE_BY_UNIX | 45, 12);
      record.writeUInt16LE(45, 14);
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(LOCATOR64, 0);
      locator.writeBigUInt64LE(BigInt(end64At), 8);
      locator.writeUInt32LE(1, 16);
      await this.emit(Buffer.concat([record, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END, 0);
    end.writeUInt16LE(Math.min(count, 0xffff), 8);
    end.writeUInt16LE(Math.min(count, 0xffff), 10);
    end.writeUInt32LE(Math.min(size, MAX32), 12);
    end.writeUInt32LE(Math.min(start, MAX32), 16);
    await this.emit(end);
  }

  private async emit(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    await this.sink.write(chunk);
  }

  private async *count(data: AsyncIterable<Buffer>, entry: Written): AsyncIterable<Buffer> {
    for await (const chunk of data) {
      entry.crc = crc32(chunk, entry.crc);
      entry.uncompressed += chunk.length;
      yield chunk;
    }
  }
}

function localHeader(entry: Written): Buffer {
  const extra = entry.zip64 ? zip64Extra([0, 0]) : Buffer.alloc(0);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(LOCAL, 0);
  header.writeUInt16LE(entry.zip64 ? 45 : 20, 4);
  header.writeUInt16LE(FLAGS, 6);
  header.writeUInt16LE(entry.method === 'deflate' ? 8 : 0, 8);
  header.writeUInt16LE(DOS_TIME, 10);
  header.writeUInt16LE(DOS_DATE, 12);
  header.writeUInt32LE(entry.zip64 ? MAX32 : 0, 18);
  header.writeUInt32LE(entry.zip64 ? MAX32 : 0, 22);
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, entry.name, extra]);
}

function descriptor(entry: Written): Buffer {
  const out = Buffer.alloc(entry.zip64 ? 24 : 16);
  out.writeUInt32LE(DESCRIPTOR, 0);
  out.writeUInt32LE(entry.crc >>> 0, 4);
  if (entry.zip64) {
    out.writeBigUInt64LE(BigInt(entry.compressed), 8);
    out.writeBigUInt64LE(BigInt(entry.uncompressed), 16);
  } else {
    out.writeUInt32LE(entry.compressed, 8);
    out.writeUInt32LE(entry.uncompressed, 12);
  }
  return out;
}

function centralHeader(entry: Written): Buffer {
  const big = [entry.uncompressed, entry.compressed, entry.offset].map((n) => entry.zip64 || n >= MAX32);
  const extraValues = [entry.uncompressed, entry.compressed, entry.offset].filter((_, i) => big[i]);
  const extra = extraValues.length > 0 ? zip64Extra(extraValues) : Buffer.alloc(0);
  const needs64 = extraValues.length > 0;
  const header = Buffer.alloc(46);
  header.writeUInt32LE(CENTRAL, 0);
  header.writeUInt16LE(MADE_BY_UNIX | (needs64 ? 45 : 20), 4);
  header.writeUInt16LE(needs64 ? 45 : 20, 6);
  header.writeUInt16LE(FLAGS, 8);
  header.writeUInt16LE(entry.method === 'deflate' ? 8 : 0, 10);
  header.writeUInt16LE(DOS_TIME, 12);
  header.writeUInt16LE(DOS_DATE, 14);
  header.writeUInt32LE(entry.crc >>> 0, 16);
  header.writeUInt32LE(big[1] ? MAX32 : entry.compressed, 20);
  header.writeUInt32LE(big[0] ? MAX32 : entry.uncompressed, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt32LE((FILE_MODE << 16) >>> 0, 38);
  header.writeUInt32LE(big[2] ? MAX32 : entry.offset, 42);
  return Buffer.concat([header, entry.name, extra]);
}

function zip64Extra(values: number[]): Buffer {
  const out = Buffer.alloc(4 + values.length * 8);
  out.writeUInt16LE(0x0001, 0);
  out.writeUInt16LE(values.length * 8, 2);
  values.forEach((value, i) => out.writeBigUInt64LE(BigInt(value), 4 + i * 8));
  return out;
}
