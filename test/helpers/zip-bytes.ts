import zlib from 'node:zlib';

/** One entry of a hand-built zip. */
export interface ZipEntrySpec {
  /** Stored byte for byte as the entry name, so hostile names (`../x`, `/x`, `C:/x`) survive. */
  name: string;
  /** The name's bytes, when they are not its UTF-8 (e.g. code page 437); `name` is then only a label. */
  rawName?: Buffer;
  /** Set the UTF-8 flag (bit 11); default true. */
  utf8Flag?: boolean;
  data?: Buffer | string;
  /** `store` (default) or `deflate` (raw deflate of `data`). */
  method?: 'store' | 'deflate';
  /** Unix mode put in the high 16 bits of the external attributes, e.g. `0o120777` for a symlink. */
  unixMode?: number;
  /** Uncompressed size written in the headers instead of the real one (the compressed size stays true). */
  declaredSize?: number;
  /** CRC-32 written in the headers instead of the real one. */
  crc?: number;
}

/** Options that apply to the whole archive. */
export interface ZipOptions {
  /** Entry count written in the end-of-central-directory record instead of the real one. */
  declaredEntryCount?: number;
}

let crcTable: Uint32Array | null = null;

/** CRC-32 (IEEE) computed with a lookup table, for Node versions without `zlib.crc32`. */
export function tableCrc32(data: Buffer): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** CRC-32 (IEEE) of `data`, from node:zlib when it has one. */
export function crc32(data: Buffer): number {
  return typeof zlib.crc32 === 'function' ? zlib.crc32(data) >>> 0 : tableCrc32(data);
}

const DOS_TIME = (12 << 11) | (30 << 5);
const DOS_DATE = ((2024 - 1980) << 9) | (6 << 5) | 15;
const UTF8_FLAG = 0x0800;

/**
 * The bytes of a zip archive (local headers, central directory, end record) holding `entries`,
 * written without any of the checks a zip library would make.
 */
export function zipBytes(entries: readonly ZipEntrySpec[], options: ZipOptions = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = entry.rawName ?? Buffer.from(entry.name, 'utf8');
    const flags = entry.utf8Flag === false ? 0 : UTF8_FLAG;
    const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : (entry.data ?? Buffer.alloc(0));
    const deflate = entry.method === 'deflate';
    const stored = deflate ? zlib.deflateRawSync(raw) : raw;
    const method = deflate ? 8 : 0;
    const crc = entry.crc ?? crc32(raw);
    const size = entry.declaredSize ?? raw.length;
    const compressedSize = stored.length;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressedSize, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.unixMode !== undefined ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressedSize, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30);
    central.writeUInt16LE(0, 32);
    central.writeUInt16LE(0, 34);
    central.writeUInt16LE(0, 36);
    const dosAttributes = entry.name.endsWith('/') ? 0x10 : 0;
    central.writeUInt32LE(entry.unixMode !== undefined ? ((entry.unixMode << 16) | dosAttributes) >>> 0 : dosAttributes, 38);
    central.writeUInt32LE(offset, 42);

    locals.push(local, name, stored);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const count = options.declaredEntryCount ?? entries.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, directory, end]);
}
