/**
 * Small .blend files built in memory for unit tests: a real header (both forms), block headers for
 * 4- or 8-byte pointers in either byte order, a real SDNA with a few structs (ID, Image, Library,
 * ImageTile, PackedFile, ListBase) and Image/Library data-blocks pointing at paths.
 */

export interface SyntheticOptions {
  pointerSize?: 4 | 8;
  littleEndian?: boolean;
  /** 0: `BLENDER-v304` header; 1: `BLENDER17-01v0500` header with 32-byte block headers. */
  format?: 0 | 1;
}

interface FieldDef {
  type: string;
  name: string;
}

const BASIC_SIZES: Record<string, number> = { char: 1, short: 2, int: 4, void: 0 };

const STRUCTS: { type: string; fields: FieldDef[] }[] = [
  { type: 'ListBase', fields: [{ type: 'void', name: '*first' }, { type: 'void', name: '*last' }] },
  {
    type: 'ID',
    fields: [
      { type: 'void', name: '*next' },
      { type: 'void', name: '*prev' },
      { type: 'Library', name: '*lib' },
      { type: 'char', name: 'name[66]' },
      { type: 'short', name: 'flag' },
    ],
  },
  { type: 'PackedFile', fields: [{ type: 'int', name: 'size' }, { type: 'int', name: 'seek' }, { type: 'void', name: '*data' }] },
  { type: 'ImageTile', fields: [{ type: 'ImageTile', name: '*next' }, { type: 'ImageTile', name: '*prev' }, { type: 'int', name: 'tile_number' }, { type: 'int', name: '_pad' }] },
  {
    type: 'Image',
    fields: [
      { type: 'ID', name: 'id' },
      { type: 'char', name: 'name[1024]' },
      { type: 'short', name: 'source' },
      { type: 'short', name: 'flag' },
      { type: 'PackedFile', name: '*packedfile' },
      { type: 'ListBase', name: 'packedfiles' },
      { type: 'ListBase', name: 'tiles' },
    ],
  },
  { type: 'Library', fields: [{ type: 'ID', name: 'id' }, { type: 'char', name: 'name[1024]' }, { type: 'PackedFile', name: '*packedfile' }] },
];

/** A .blend under construction. */
export class SyntheticBlend {
  readonly pointerSize: 4 | 8;
  readonly littleEndian: boolean;
  readonly format: 0 | 1;
  private readonly blocks: { code: string; struct: string | null; data: Buffer; old: bigint }[] = [];
  private nextPointer = 0x1000n;
  private readonly sizes = new Map<string, number>();

  constructor(options: SyntheticOptions = {}) {
    this.pointerSize = options.format === 1 ? 8 : (options.pointerSize ?? 8);
    this.littleEndian = options.format === 1 ? true : (options.littleEndian ?? true);
    this.format = options.format ?? 0;
    for (const [type, size] of Object.entries(BASIC_SIZES)) this.sizes.set(type, size);
    for (const s of STRUCTS) this.sizes.set(s.type, s.fields.reduce((sum, f) => sum + this.fieldSize(f), 0));
  }

  /** An image data-block; `source` 1 = file, 2 = sequence, 6 = UDIM tiles. Returns its address. */
  addImage(options: { name: string; path: string; source?: number; packed?: boolean; tiles?: number[]; linked?: boolean }): bigint {
    const data = this.structBuffer('Image');
    this.writeId(data, 'IM' + options.name, options.linked ? 0xdeadn : 0n);
    this.writeString(data, this.offsetOf('Image', 'name'), options.path);
    this.writeShort(data, this.offsetOf('Image', 'source'), options.source ?? 1);
    const address = this.push('IM', 'Image', data);
    if (options.packed) {
      const packed = this.structBuffer('PackedFile');
      this.writePointer(data, this.offsetOf('Image', 'packedfile'), this.push('DATA', 'PackedFile', packed));
    }
    const tiles = (options.tiles ?? []).map((n) => {
      const tile = this.structBuffer('ImageTile');
      if (this.littleEndian) tile.writeInt32LE(n, this.offsetOf('ImageTile', 'tile_number'));
      else tile.writeInt32BE(n, this.offsetOf('ImageTile', 'tile_number'));
      return { tile, address: this.push('DATA', 'ImageTile', tile) };
    });
    tiles.forEach((t, i) => {
      if (tiles[i + 1]) this.writePointer(t.tile, this.offsetOf('ImageTile', 'next'), tiles[i + 1]!.address);
    });
    if (tiles.length > 0) {
      const base = this.offsetOf('Image', 'tiles');
      this.writePointer(data, base, tiles[0]!.address);
      this.writePointer(data, base + this.pointerSize, tiles.at(-1)!.address);
    }
    return address;
  }

  /** A library data-block pointing at another .blend. */
  addLibrary(options: { name: string; path: string }): bigint {
    const data = this.structBuffer('Library');
    this.writeId(data, 'LI' + options.name, 0n);
    this.writeString(data, this.offsetOf('Library', 'name'), options.path);
    return this.push('LI', 'Library', data);
  }

  /** The whole file. */
  build(): Buffer {
    const parts: Buffer[] = [this.header()];
    for (const block of this.blocks) parts.push(this.blockHeader(block.code, block.struct, block.data.length, block.old, 1), block.data);
    const dna = this.sdna();
    parts.push(this.blockHeader('DNA1', null, dna.length, 0n, 1), dna);
    parts.push(this.blockHeader('ENDB', null, 0, 0n, 0));
    return Buffer.concat(parts);
  }

  /** Offset of a top-level field of one of the synthetic structs. */
  offsetOf(struct: string, field: string): number {
    let offset = 0;
    for (const f of STRUCTS.find((s) => s.type === struct)!.fields) {
      if (f.name.replace(/^\*+/, '').replace(/\[.*$/, '') === field) return offset;
      offset += this.fieldSize(f);
    }
    throw new Error(`no field ${struct}.${field}`);
  }

  private fieldSize(field: FieldDef): number {
    const dims = [...field.name.matchAll(/\[(\d+)\]/g)].reduce((n, m) => n * Number(m[1]), 1);
    if (field.name.startsWith('*')) return this.pointerSize * dims;
    return this.sizes.get(field.type)! * dims;
  }

  private structBuffer(type: string): Buffer {
    return Buffer.alloc(this.sizes.get(type)!);
  }

  private push(code: string, struct: string, data: Buffer): bigint {
    const old = this.nextPointer;
    this.nextPointer += 0x1000n;
    this.blocks.push({ code: code.padEnd(4, '\0'), struct, data, old });
    return old;
  }

  private writeId(data: Buffer, name: string, lib: bigint): void {
    this.writePointer(data, this.offsetOf('ID', 'lib'), lib);
    this.writeString(data, this.offsetOf('ID', 'name'), name);
  }

  private writeString(data: Buffer, at: number, text: string): void {
    Buffer.from(text, 'utf8').copy(data, at);
  }

  private writeShort(data: Buffer, at: number, value: number): void {
    if (this.littleEndian) data.writeInt16LE(value, at);
    else data.writeInt16BE(value, at);
  }

  private writePointer(data: Buffer, at: number, value: bigint): void {
    if (this.pointerSize === 8) {
      if (this.littleEndian) data.writeBigUInt64LE(value, at);
      else data.writeBigUInt64BE(value, at);
    } else if (this.littleEndian) data.writeUInt32LE(Number(value), at);
    else data.writeUInt32BE(Number(value), at);
  }

  private header(): Buffer {
    if (this.format === 1) return Buffer.from('BLENDER17-01v0500', 'latin1');
    return Buffer.from(`BLENDER${this.pointerSize === 4 ? '_' : '-'}${this.littleEndian ? 'v' : 'V'}304`, 'latin1');
  }

  private structIndex(type: string): number {
    return STRUCTS.findIndex((s) => s.type === type);
  }

  private blockHeader(code: string, struct: string | null, length: number, old: bigint, count: number): Buffer {
    const sdna = struct ? this.structIndex(struct) : 0;
    const le = this.littleEndian;
    const int32 = (b: Buffer, v: number, at: number) => (le ? b.writeInt32LE(v, at) : b.writeInt32BE(v, at));
    if (this.format === 1) {
      const b = Buffer.alloc(32);
      b.write(code, 0, 'latin1');
      int32(b, sdna, 4);
      b.writeBigUInt64LE(old, 8);
      b.writeBigInt64LE(BigInt(length), 16);
      b.writeBigInt64LE(BigInt(count), 24);
      return b;
    }
    const b = Buffer.alloc(this.pointerSize === 8 ? 24 : 20);
    b.write(code, 0, 'latin1');
    int32(b, length, 4);
    this.writePointer(b, 8, old);
    int32(b, sdna, 8 + this.pointerSize);
    int32(b, count, 12 + this.pointerSize);
    return b;
  }

  private sdna(): Buffer {
    const le = this.littleEndian;
    const names = [...new Set(STRUCTS.flatMap((s) => s.fields.map((f) => f.name)))];
    const types = [...Object.keys(BASIC_SIZES), ...STRUCTS.map((s) => s.type)];
    const parts: Buffer[] = [];
    const int32 = (v: number) => {
      const b = Buffer.alloc(4);
      if (le) b.writeInt32LE(v);
      else b.writeInt32BE(v);
      return b;
    };
    const int16 = (v: number) => {
      const b = Buffer.alloc(2);
      if (le) b.writeInt16LE(v);
      else b.writeInt16BE(v);
      return b;
    };
    const pad = () => {
      const length = parts.reduce((n, p) => n + p.length, 0);
      if (length % 4) parts.push(Buffer.alloc(4 - (length % 4)));
    };
    parts.push(Buffer.from('SDNANAME', 'latin1'), int32(names.length), ...names.map((n) => Buffer.from(`${n}\0`, 'latin1')));
    pad();
    parts.push(Buffer.from('TYPE', 'latin1'), int32(types.length), ...types.map((t) => Buffer.from(`${t}\0`, 'latin1')));
    pad();
    parts.push(Buffer.from('TLEN', 'latin1'), ...types.map((t) => int16(this.sizes.get(t)!)));
    pad();
    parts.push(Buffer.from('STRC', 'latin1'), int32(STRUCTS.length));
    for (const s of STRUCTS) {
      parts.push(int16(types.indexOf(s.type)), int16(s.fields.length));
      for (const f of s.fields) parts.push(int16(types.indexOf(f.type)), int16(names.indexOf(f.name)));
    }
    pad();
    return Buffer.concat(parts);
  }
}
