/**
 * Small .blend files built in memory for unit tests: a real header (both forms, any version), block
 * headers for 4- or 8-byte pointers in either byte order, a real SDNA with a few structs (ID, Image,
 * Library, bSound, Text, ImageTile, PackedFile, ListBase) laid out as the Blender version the file
 * claims wrote them, and Image/Library/Sound/Text data-blocks pointing at paths.
 *
 * Layouts by version, as Blender writes them (its structure description keeps the names fields had
 * before a rename): the path Blender reads is always `name`; beside it `Library` holds the absolute
 * runtime copy in `filepath` before 2.93 and in `filepath_abs` from 2.93 to 4.x, and none from 5.0 (the
 * copy lives outside the file's structs). From 4.2 the data blocks of different data-blocks reuse the
 * same addresses (Blender keeps them unique within one data-block only).
 */

export interface SyntheticOptions {
  pointerSize?: 4 | 8;
  littleEndian?: boolean;
  /** 0: `BLENDER-v304` header; 1: `BLENDER17-01v0500` header with 32-byte block headers. */
  format?: 0 | 1;
  /** Blender version the file claims to be saved by (279, 304, 402...): its header and struct layout. 304 by default, 500 with format 1. */
  version?: number;
}

/** The struct layouts Blender wrote over the years, as this writer lays them out. */
export const LAYOUTS: [string, SyntheticOptions][] = [
  ['2.79 (4-byte pointers, big-endian)', { version: 279, pointerSize: 4, littleEndian: false }],
  ['2.79', { version: 279 }],
  ['2.80', { version: 280 }],
  ['2.93', { version: 293 }],
  ['3.4', { version: 304 }],
  ['4.2 (addresses reused across data-blocks)', { version: 402 }],
  ['5.0 (17-byte header, no runtime copy)', { format: 1 }],
];

interface FieldDef {
  type: string;
  name: string;
}

interface StructDef {
  type: string;
  fields: FieldDef[];
}

const BASIC_SIZES: Record<string, number> = { char: 1, short: 2, int: 4, void: 0 };

/** Blender version from which `Library` keeps its runtime copy in `filepath_abs` (before: `filepath`). */
const RUNTIME_COPY_RENAMED = 293;
/** Blender version from which the runtime copy is no longer in the file's `Library`. */
const RUNTIME_COPY_GONE = 500;
/** Blender version from which data blocks of different data-blocks share addresses. */
const ADDRESSES_PER_ID = 402;

/** The `Library` struct of a file of `version`. */
function libraryStruct(version: number): StructDef {
  const id = { type: 'ID', name: 'id' };
  const name = { type: 'char', name: 'name[1024]' };
  const packed = { type: 'PackedFile', name: '*packedfile' };
  if (version >= RUNTIME_COPY_GONE) return { type: 'Library', fields: [id, name, packed, { type: 'void', name: '*runtime' }] };
  const runtime = { type: 'char', name: version >= RUNTIME_COPY_RENAMED ? 'filepath_abs[1024]' : 'filepath[1024]' };
  return { type: 'Library', fields: [id, { type: 'void', name: '*filedata' }, name, runtime, { type: 'Library', name: '*parent' }, packed] };
}

/** Every struct of a file of `version`. */
function structsOf(version: number): StructDef[] {
  return [
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
    libraryStruct(version),
    { type: 'bSound', fields: [{ type: 'ID', name: 'id' }, { type: 'char', name: 'name[1024]' }, { type: 'PackedFile', name: '*packedfile' }] },
    { type: 'Text', fields: [{ type: 'ID', name: 'id' }, { type: 'char', name: '*name' }, { type: 'int', name: 'flags' }, { type: 'int', name: '_pad' }] },
  ];
}

/** The structs of a scene with a video sequencer, in the names every layout stores them under (`Sequence.machine` is the strip's channel). */
const SCENE_STRUCTS: StructDef[] = [
  { type: 'RenderData', fields: [{ type: 'int', name: 'scemode' }, { type: 'int', name: '_pad' }] },
  {
    type: 'SeqTimelineChannel',
    fields: [
      { type: 'SeqTimelineChannel', name: '*next' },
      { type: 'SeqTimelineChannel', name: '*prev' },
      { type: 'char', name: 'name[64]' },
      { type: 'int', name: 'index' },
      { type: 'int', name: 'flag' },
    ],
  },
  {
    type: 'Sequence',
    fields: [
      { type: 'Sequence', name: '*next' },
      { type: 'Sequence', name: '*prev' },
      { type: 'char', name: 'name[64]' },
      { type: 'int', name: 'flag' },
      { type: 'int', name: 'type' },
      { type: 'int', name: 'machine' },
      { type: 'int', name: '_pad' },
    ],
  },
  { type: 'Editing', fields: [{ type: 'ListBase', name: 'seqbase' }, { type: 'ListBase', name: 'channels' }] },
  { type: 'Scene', fields: [{ type: 'ID', name: 'id' }, { type: 'RenderData', name: 'r' }, { type: 'Editing', name: '*ed' }] },
];

/** A strip of {@link SyntheticBlend.addScene}: its type (`Sequence.type`), channel, and whether it or its channel is muted. */
export interface SyntheticStrip {
  name: string;
  type: number;
  channel: number;
  muted?: boolean;
  channelMuted?: boolean;
}

/** A .blend under construction. */
export class SyntheticBlend {
  readonly pointerSize: 4 | 8;
  readonly littleEndian: boolean;
  readonly format: 0 | 1;
  readonly version: number;
  private readonly structs: StructDef[];
  private readonly blocks: { code: string; struct: string | null; data: Buffer; old: bigint }[] = [];
  private nextPointer = 0x1000n;
  /** Next address of a data block inside the current data-block, when addresses are per data-block. */
  private nextDataPointer = 0n;
  private readonly sizes = new Map<string, number>();

  constructor(options: SyntheticOptions = {}) {
    this.pointerSize = options.format === 1 ? 8 : (options.pointerSize ?? 8);
    this.littleEndian = options.format === 1 ? true : (options.littleEndian ?? true);
    this.format = options.format ?? 0;
    this.version = options.version ?? (this.format === 1 ? 500 : 304);
    this.structs = structsOf(this.version);
    for (const [type, size] of Object.entries(BASIC_SIZES)) this.sizes.set(type, size);
    for (const s of this.structs) this.sizes.set(s.type, s.fields.reduce((sum, f) => sum + this.fieldSize(f), 0));
  }

  /** An image data-block; `source` 1 = file, 2 = sequence, 6 = UDIM tiles; `packed` data (or an empty PackedFile). Returns its address. */
  addImage(options: { name: string; path: string; source?: number; packed?: boolean | Buffer; tiles?: number[]; linked?: boolean }): bigint {
    const data = this.structBuffer('Image');
    this.writeId(data, 'IM' + options.name, options.linked ? 0xdeadn : 0n);
    this.writeString(data, this.offsetOf('Image', 'name'), options.path);
    this.writeShort(data, this.offsetOf('Image', 'source'), options.source ?? 1);
    const address = this.push('IM', 'Image', data);
    if (options.packed) {
      const packed = this.structBuffer('PackedFile');
      if (Buffer.isBuffer(options.packed)) {
        const size = this.offsetOf('PackedFile', 'size');
        if (this.littleEndian) packed.writeInt32LE(options.packed.length, size);
        else packed.writeInt32BE(options.packed.length, size);
        this.writePointer(packed, this.offsetOf('PackedFile', 'data'), this.push('DATA', null, options.packed));
      }
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

  /**
   * A library data-block pointing at another .blend. `absolute` is the runtime copy the saving Blender
   * wrote beside the path (the absolute path on its machine), in layouts that have one.
   */
  addLibrary(options: { name: string; path: string; absolute?: string }): bigint {
    const data = this.structBuffer('Library');
    this.writeId(data, 'LI' + options.name, 0n);
    this.writeString(data, this.offsetOf('Library', 'name'), options.path);
    const runtime = this.runtimeCopyField();
    if (runtime) this.writeString(data, this.offsetOf('Library', runtime), options.absolute ?? `/home/artist/projects/${options.name}`);
    return this.push('LI', 'Library', data);
  }

  /** The field of `Library` holding the runtime copy of its path in this file's layout, or null. */
  runtimeCopyField(): 'filepath' | 'filepath_abs' | null {
    if (this.version >= RUNTIME_COPY_GONE) return null;
    return this.version >= RUNTIME_COPY_RENAMED ? 'filepath_abs' : 'filepath';
  }

  /** A sound data-block. */
  addSound(options: { name: string; path: string; packed?: boolean }): bigint {
    const data = this.structBuffer('bSound');
    this.writeId(data, 'SO' + options.name, 0n);
    this.writeString(data, this.offsetOf('bSound', 'name'), options.path);
    const address = this.push('SO', 'bSound', data);
    if (options.packed) this.writePointer(data, this.offsetOf('bSound', 'packedfile'), this.push('DATA', 'PackedFile', this.structBuffer('PackedFile')));
    return address;
  }

  /** A text data-block saved as an outside file: its path in a block of its own. */
  addText(options: { name: string; path: string }): bigint {
    const data = this.structBuffer('Text');
    this.writeId(data, 'TX' + options.name, 0n);
    const address = this.push('TX', 'Text', data);
    const text = Buffer.alloc((Buffer.byteLength(options.path) + 1 + 3) & ~3);
    this.writeString(text, 0, options.path);
    this.writePointer(data, this.offsetOf('Text', 'name'), this.push('DATA', null, text));
    return address;
  }

  /**
   * A scene data-block with a render mode (`RenderData.scemode`) and, when `strips` are given, a video
   * sequencer holding them at its top with 129 channels (as Blender makes them). Returns its address.
   */
  addScene(options: { name: string; scemode: number; strips?: SyntheticStrip[] }): bigint {
    this.useStructs(SCENE_STRUCTS);
    const data = this.structBuffer('Scene');
    this.writeId(data, 'SC' + options.name, 0n);
    this.writeInt(data, this.offsetOf('Scene', 'r') + this.offsetOf('RenderData', 'scemode'), options.scemode);
    const address = this.push('SC', 'Scene', data);
    if (!options.strips) return address;
    const editing = this.structBuffer('Editing');
    this.writePointer(data, this.offsetOf('Scene', 'ed'), this.push('DATA', 'Editing', editing));
    const muted = new Set(options.strips.filter((s) => s.channelMuted).map((s) => s.channel));
    const channels = Array.from({ length: 129 }, (_, index) => {
      const channel = this.structBuffer('SeqTimelineChannel');
      this.writeInt(channel, this.offsetOf('SeqTimelineChannel', 'index'), index);
      this.writeInt(channel, this.offsetOf('SeqTimelineChannel', 'flag'), muted.has(index) ? 1 << 1 : 0);
      return channel;
    });
    this.linkList(editing, this.offsetOf('Editing', 'channels'), 'SeqTimelineChannel', channels);
    const strips = options.strips.map((strip) => {
      const view = this.structBuffer('Sequence');
      this.writeString(view, this.offsetOf('Sequence', 'name'), `SQ${strip.name}`);
      this.writeInt(view, this.offsetOf('Sequence', 'flag'), strip.muted ? 1 << 5 : 0);
      this.writeInt(view, this.offsetOf('Sequence', 'type'), strip.type);
      this.writeInt(view, this.offsetOf('Sequence', 'machine'), strip.channel);
      return view;
    });
    this.linkList(editing, this.offsetOf('Editing', 'seqbase'), 'Sequence', strips);
    return address;
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
    for (const f of this.structs.find((s) => s.type === struct)!.fields) {
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

  /** Adds struct definitions the file does not have yet (after those it has, so earlier blocks keep their SDNA index). */
  private useStructs(defs: readonly StructDef[]): void {
    for (const def of defs) {
      if (this.structs.some((s) => s.type === def.type)) continue;
      this.structs.push(def);
      this.sizes.set(def.type, def.fields.reduce((sum, f) => sum + this.fieldSize(f), 0));
    }
  }

  /** Pushes `items` as DATA blocks of `struct` (whose first two fields are `next` and `prev`) and points the ListBase at `at` in `owner` at them. */
  private linkList(owner: Buffer, at: number, struct: string, items: Buffer[]): void {
    const addresses = items.map((item) => this.push('DATA', struct, item));
    items.forEach((item, i) => {
      if (addresses[i + 1] !== undefined) this.writePointer(item, 0, addresses[i + 1]!);
      if (i > 0) this.writePointer(item, this.pointerSize, addresses[i - 1]!);
    });
    if (items.length === 0) return;
    this.writePointer(owner, at, addresses[0]!);
    this.writePointer(owner, at + this.pointerSize, addresses.at(-1)!);
  }

  private writeInt(data: Buffer, at: number, value: number): void {
    if (this.littleEndian) data.writeInt32LE(value, at);
    else data.writeInt32BE(value, at);
  }

  private structBuffer(type: string): Buffer {
    return Buffer.alloc(this.sizes.get(type)!);
  }

  private push(code: string, struct: string | null, data: Buffer): bigint {
    let old = this.nextPointer;
    if (code !== 'DATA') {
      this.nextPointer += 0x1000n;
      this.nextDataPointer = 0x10_0000n;
    } else if (this.version >= ADDRESSES_PER_ID) {
      old = this.nextDataPointer;
      this.nextDataPointer += 0x1000n;
    } else {
      this.nextPointer += 0x1000n;
    }
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
    if (this.format === 1) return Buffer.from(`BLENDER17-01v${String(this.version).padStart(4, '0')}`, 'latin1');
    return Buffer.from(`BLENDER${this.pointerSize === 4 ? '_' : '-'}${this.littleEndian ? 'v' : 'V'}${this.version}`, 'latin1');
  }

  private structIndex(type: string): number {
    return this.structs.findIndex((s) => s.type === type);
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
    const names = [...new Set(this.structs.flatMap((s) => s.fields.map((f) => f.name)))];
    const types = [...Object.keys(BASIC_SIZES), ...this.structs.map((s) => s.type)];
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
    parts.push(Buffer.from('STRC', 'latin1'), int32(this.structs.length));
    for (const s of this.structs) {
      parts.push(int16(types.indexOf(s.type)), int16(s.fields.length));
      for (const f of s.fields) parts.push(int16(types.indexOf(f.type)), int16(names.indexOf(f.name)));
    }
    pad();
    return Buffer.concat(parts);
  }
}
