import type { SdnaField, SdnaStruct } from './sdna';

/** Where a field lies in the decompressed .blend, to patch it in a copy. */
export interface FieldLocation {
  offset: number;
  size: number;
}

/** How to read numbers and pointers of one file. */
export interface ByteOrder {
  littleEndian: boolean;
  pointerSize: 4 | 8;
}

/**
 * Typed access to one struct inside a block's data, through the file's own SDNA: fields are found by
 * name, so the same code reads files of different Blender versions. Getters return null (pointers 0n)
 * for fields this file's version does not have.
 */
export class StructView {
  constructor(
    readonly def: SdnaStruct,
    /** The block this struct was read from. */
    readonly block: number,
    private readonly data: Buffer,
    /** Offset of the struct inside `data`. */
    private readonly base: number,
    /** Offset of `data` in the decompressed file. */
    private readonly dataOffset: number,
    private readonly order: ByteOrder,
  ) {}

  /** Offset of this struct in the decompressed file. */
  get offset(): number {
    return this.dataOffset + this.base;
  }

  has(name: string): boolean {
    return this.def.field(name) !== undefined;
  }

  /** The first of `names` this struct has (fields renamed across versions). */
  pick(...names: string[]): string | null {
    return names.find((n) => this.has(n)) ?? null;
  }

  /** An integer or float field (the first element of an array), or null when absent. */
  number(name: string): number | null {
    const field = this.def.field(name);
    if (!field || field.isPointer) return null;
    return this.readNumber(field, 0);
  }

  /** A `char` array as text (UTF-8 up to the first NUL), or null when absent. */
  string(name: string): string | null {
    const field = this.def.field(name);
    if (!field || field.isPointer || field.type !== 'char') return null;
    const start = this.base + field.offset;
    const bytes = this.data.subarray(start, Math.min(this.data.length, start + field.size));
    const end = bytes.indexOf(0);
    return bytes.subarray(0, end < 0 ? bytes.length : end).toString('utf8');
  }

  /** A pointer field's old address (0n for null or absent). */
  pointer(name: string, element = 0): bigint {
    const field = this.def.field(name);
    if (!field || !field.isPointer || element >= field.elements) return 0n;
    const at = this.base + field.offset + element * this.order.pointerSize;
    if (at + this.order.pointerSize > this.data.length) return 0n;
    if (this.order.pointerSize === 8) return this.order.littleEndian ? this.data.readBigUInt64LE(at) : this.data.readBigUInt64BE(at);
    return BigInt(this.order.littleEndian ? this.data.readUInt32LE(at) : this.data.readUInt32BE(at));
  }

  /** An embedded struct field (e.g. `id`, `ldata`) as its own view, or null when absent. */
  embedded(name: string, structOf: (type: string) => SdnaStruct | undefined): StructView | null {
    const field = this.def.field(name);
    if (!field || field.isPointer) return null;
    const def = structOf(field.type);
    if (!def) return null;
    return new StructView(def, this.block, this.data, this.base + field.offset, this.dataOffset, this.order);
  }

  /** Where a field lies in the file, or null when absent. */
  location(name: string): FieldLocation | null {
    const field = this.def.field(name);
    return field ? { offset: this.offset + field.offset, size: field.size } : null;
  }

  private readNumber(field: SdnaField, element: number): number | null {
    const at = this.base + field.offset + element * (field.size / field.elements);
    const d = this.data;
    const le = this.order.littleEndian;
    if (at + field.size / field.elements > d.length) return null;
    switch (field.type) {
      case 'char':
      case 'uchar':
      case 'uint8_t':
      case 'bool':
        return d.readUInt8(at);
      case 'int8_t':
        return d.readInt8(at);
      case 'short':
      case 'int16_t':
        return le ? d.readInt16LE(at) : d.readInt16BE(at);
      case 'ushort':
      case 'uint16_t':
        return le ? d.readUInt16LE(at) : d.readUInt16BE(at);
      case 'int':
      case 'int32_t':
        return le ? d.readInt32LE(at) : d.readInt32BE(at);
      case 'uint':
      case 'uint32_t':
        return le ? d.readUInt32LE(at) : d.readUInt32BE(at);
      case 'long':
      case 'ulong':
        if (field.size / field.elements === 4) return le ? d.readInt32LE(at) : d.readInt32BE(at);
        return Number(le ? d.readBigInt64LE(at) : d.readBigInt64BE(at));
      case 'int64_t':
        return Number(le ? d.readBigInt64LE(at) : d.readBigInt64BE(at));
      case 'uint64_t':
        return Number(le ? d.readBigUInt64LE(at) : d.readBigUInt64BE(at));
      case 'float':
        return le ? d.readFloatLE(at) : d.readFloatBE(at);
      case 'double':
        return le ? d.readDoubleLE(at) : d.readDoubleBE(at);
      default:
        return null;
    }
  }
}
