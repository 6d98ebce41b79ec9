import { renamedField } from './dna-renames';
import type { Sdna, SdnaField, SdnaStruct } from './sdna';

/** Where a field lies in the decompressed .blend, to patch it in a copy. */
export interface FieldLocation {
  offset: number;
  size: number;
}

/** How to read numbers, pointers and embedded structs of one file. */
export interface ReadContext {
  littleEndian: boolean;
  pointerSize: 4 | 8;
  sdna: Sdna;
  /** Blender version that wrote the file (304 for 3.4): which meaning a field name had there. */
  version: number;
}

/** Bytes read for a number of each type, whatever size a damaged structure description claims. */
const NATURAL_BYTES: Record<string, number> = {
  char: 1,
  uchar: 1,
  uint8_t: 1,
  bool: 1,
  int8_t: 1,
  short: 2,
  int16_t: 2,
  ushort: 2,
  uint16_t: 2,
  int: 4,
  int32_t: 4,
  uint: 4,
  uint32_t: 4,
  float: 4,
  long: 4,
  ulong: 4,
  int64_t: 8,
  uint64_t: 8,
  double: 8,
};

/** Deepest chain of first members followed to find an inherited field. */
const MAX_BASE_DEPTH = 4;

/**
 * Typed access to one struct inside a block's data, through the file's own SDNA: fields are found by
 * the name Blender's code gives them now, whatever name the file stores them under (see
 * `dna-renames.ts`), so the same code reads files of different Blender versions. A field missing from
 * the struct is looked up in its first member when that is a struct (how Blender's structs extend a
 * base, e.g. `OceanModifierData.modifier.next`). Getters return null (pointers 0n) for fields the file lacks.
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
    private readonly order: ReadContext,
  ) {}

  /** Offset of this struct in the decompressed file. */
  get offset(): number {
    return this.dataOffset + this.base;
  }

  /** Whether this struct (or its base) has the field Blender's code calls `name`. */
  has(name: string): boolean {
    return this.find(name) !== null;
  }

  /** The field called `name` and the offset of the struct holding it, own fields first, then the base's. */
  private find(name: string): { field: SdnaField; base: number } | null {
    let def: SdnaStruct | undefined = this.def;
    let base = this.base;
    for (let depth = 0; def && depth <= MAX_BASE_DEPTH; depth++) {
      const field = renamedField(def, name, this.order.version);
      if (field) return { field, base };
      const first = def.fields[0];
      if (!first || first.isPointer || first.elements !== 1) return null;
      def = this.order.sdna.struct(first.type);
      base += first.offset;
    }
    return null;
  }

  /** An integer or float field (the first element of an array), or null when absent. */
  number(name: string): number | null {
    const found = this.find(name);
    if (!found || found.field.isPointer) return null;
    return this.readNumber(found.field, found.base);
  }

  /** A `char` array as text (UTF-8 up to the first NUL), or null when absent. */
  string(name: string): string | null {
    const found = this.find(name);
    if (!found || found.field.isPointer || found.field.type !== 'char') return null;
    const { field, base } = found;
    const start = base + field.offset;
    if (!this.fits(start, 0)) return null;
    const bytes = this.data.subarray(start, Math.min(this.data.length, start + field.size));
    const end = bytes.indexOf(0);
    return bytes.subarray(0, end < 0 ? bytes.length : end).toString('utf8');
  }

  /** A pointer field's old address (0n for null or absent). */
  pointer(name: string, element = 0): bigint {
    const found = this.find(name);
    if (!found || !found.field.isPointer || element >= found.field.elements) return 0n;
    const at = found.base + found.field.offset + element * this.order.pointerSize;
    if (!this.fits(at, this.order.pointerSize)) return 0n;
    if (this.order.pointerSize === 8) return this.order.littleEndian ? this.data.readBigUInt64LE(at) : this.data.readBigUInt64BE(at);
    return BigInt(this.order.littleEndian ? this.data.readUInt32LE(at) : this.data.readUInt32BE(at));
  }

  /** An embedded struct field (e.g. `id`, `ldata`) as its own view, or null when absent. */
  embedded(name: string): StructView | null {
    const found = this.find(name);
    if (!found || found.field.isPointer) return null;
    const def = this.order.sdna.struct(found.field.type);
    if (!def) return null;
    return new StructView(def, this.block, this.data, found.base + found.field.offset, this.dataOffset, this.order);
  }

  /** Where a field lies in the file, or null when absent. */
  location(name: string): FieldLocation | null {
    const found = this.find(name);
    if (!found || !this.fits(found.base + found.field.offset, found.field.size)) return null;
    return { offset: this.dataOffset + found.base + found.field.offset, size: found.field.size };
  }

  /** Whether `bytes` bytes from `at` lie inside this struct's data (offsets from a damaged file may not). */
  private fits(at: number, bytes: number): boolean {
    return Number.isSafeInteger(at) && Number.isSafeInteger(bytes) && at >= 0 && bytes >= 0 && at + bytes <= this.data.length;
  }

  private readNumber(field: SdnaField, base: number): number | null {
    const at = base + field.offset;
    const d = this.data;
    const le = this.order.littleEndian;
    const width = field.size / field.elements;
    if (!this.fits(at, Math.max(width, NATURAL_BYTES[field.type] ?? 0))) return null;
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
        if (width === 4) return le ? d.readInt32LE(at) : d.readInt32BE(at);
        if (!this.fits(at, 8)) return null;
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
