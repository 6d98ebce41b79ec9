import { BlendError } from './blend-error';
/** One field of an SDNA struct, with its place in the struct. */
export interface SdnaField {
  /** Field name without pointer stars and array sizes, e.g. `filepath` for `filepath[1024]`. */
  name: string;
  /** The name as stored, e.g. `*next`, `filepath[1024]`, `(*free)()`. */
  declaration: string;
  /** Type name, e.g. `char`, `int`, `ListBase`. */
  type: string;
  isPointer: boolean;
  /** Array sizes (`[4][4]` gives [4, 4]); empty for a single value. */
  dims: number[];
  /** Number of elements (product of dims, 1 for a single value). */
  elements: number;
  /** Bytes of the whole field. */
  size: number;
  /** Offset from the start of the struct. */
  offset: number;
}

/** A struct of the SDNA: its name, size and fields. */
export interface SdnaStruct {
  index: number;
  name: string;
  size: number;
  fields: SdnaField[];
  field: (name: string) => SdnaField | undefined;
}

/** The structure description (SDNA) stored in every .blend: how to read each struct. */
export interface Sdna {
  types: string[];
  typeSizes: number[];
  /** Number of structs described. */
  structCount: number;
  /** The struct at an SDNA index (as block headers give it), described on first use. */
  structAt: (index: number) => SdnaStruct | undefined;
  /** The struct named `name` (the first of `names` found), if this file has it. */
  struct: (...names: string[]) => SdnaStruct | undefined;
  /** The type name of the first field of the struct at `index`, without describing the struct. */
  firstFieldType: (index: number) => string | undefined;
}

/** Thrown by {@link parseSdna} for data that is not a valid SDNA; the reader turns it into a BlendFileError. */
export class SdnaFormatError extends BlendError {
  constructor(message: string) {
    super(message);
    this.name = 'SdnaFormatError';
  }
}

/** Reads the SDNA payload front to back, failing with a {@link SdnaFormatError} where it ends early. */
class SdnaCursor {
  at = 0;

  constructor(
    readonly data: Buffer,
    private readonly littleEndian: boolean,
  ) {}

  need(bytes: number): void {
    if (this.at + bytes > this.data.length) throw new SdnaFormatError('the structure description ends early');
  }

  int32(): number {
    this.need(4);
    const value = this.littleEndian ? this.data.readInt32LE(this.at) : this.data.readInt32BE(this.at);
    this.at += 4;
    return value;
  }

  uint16(): number {
    this.need(2);
    const value = this.littleEndian ? this.data.readUInt16LE(this.at) : this.data.readUInt16BE(this.at);
    this.at += 2;
    return value;
  }

  /** The 4-character section tag `expected`. */
  tag(expected: string): void {
    this.need(4);
    if (this.data.toString('latin1', this.at, this.at + 4) !== expected) throw new SdnaFormatError(`the structure description lacks its ${expected} section`);
    this.at += 4;
  }

  /** Skip a zero-terminated string; where it started. */
  skipString(): number {
    const start = this.at;
    const end = this.data.indexOf(0, start);
    if (end < 0) throw new SdnaFormatError('the structure description ends early');
    this.at = end + 1;
    return start;
  }

  strings(count: number): string[] {
    const out: string[] = new Array<string>(count);
    for (let i = 0; i < count; i++) {
      const start = this.skipString();
      out[i] = this.data.toString('latin1', start, this.at - 1);
    }
    return out;
  }

  align(): void {
    this.at = (this.at + 3) & ~3;
  }

  /** A count of at most `max`. */
  counted(max: number): number {
    const count = this.int32();
    if (count < 0 || count > max) throw new SdnaFormatError('the structure description has an impossible size');
    return count;
  }
}

/**
 * The field names of the NAME section, decoded on first use: only where each starts is read at once.
 * Returns the name at an index (undefined past the end).
 */
function readNames(cursor: SdnaCursor): (index: number) => string | undefined {
  const { data } = cursor;
  const nameCount = cursor.counted(data.length);
  const nameStarts = new Int32Array(nameCount);
  for (let i = 0; i < nameCount; i++) nameStarts[i] = cursor.skipString();
  const decodedNames = new Array<string | undefined>(nameCount);
  return (index) => {
    if (index >= nameCount) return undefined;
    let name = decodedNames[index];
    if (name === undefined) {
      const start = nameStarts[index]!;
      name = data.toString('latin1', start, data.indexOf(0, start));
      decodedNames[index] = name;
    }
    return name;
  };
}

/** The STRC section: where each struct's entry starts (type, field count, then (type, name) pairs), and the first index of each struct name. */
function readStructTable(cursor: SdnaCursor, types: string[]): { starts: Int32Array; byName: Map<string, number> } {
  const structCount = cursor.counted(cursor.data.length / 4);
  const starts = new Int32Array(structCount);
  const byName = new Map<string, number>();
  for (let index = 0; index < structCount; index++) {
    starts[index] = cursor.at;
    const typeIndex = cursor.uint16();
    const fieldCount = cursor.uint16();
    cursor.need(fieldCount * 4);
    cursor.at += fieldCount * 4;
    const name = types[typeIndex];
    if (name === undefined) throw new SdnaFormatError('a struct refers to a type that does not exist');
    if (!byName.has(name)) byName.set(name, index);
  }
  return { starts, byName };
}

/** What describing a struct needs from the parsed sections. */
interface StructTables {
  data: Buffer;
  littleEndian: boolean;
  pointerSize: 4 | 8;
  types: string[];
  typeSizes: number[];
  nameAt: (index: number) => string | undefined;
  starts: Int32Array;
}

/** Describe the struct whose entry starts at `tables.starts[index]`: its fields with their offsets. */
function describeStruct(tables: StructTables, index: number): SdnaStruct {
  const { types, typeSizes } = tables;
  const read16 = (offset: number) => (tables.littleEndian ? tables.data.readUInt16LE(offset) : tables.data.readUInt16BE(offset));
  const start = tables.starts[index]!;
  const typeIndex = read16(start);
  const fieldCount = read16(start + 2);
  const fields: SdnaField[] = [];
  let offset = 0;
  for (let f = 0; f < fieldCount; f++) {
    const type = types[read16(start + 4 + f * 4)];
    const declaration = tables.nameAt(read16(start + 6 + f * 4));
    const typeSize = typeSizes[read16(start + 4 + f * 4)];
    if (type === undefined || declaration === undefined || typeSize === undefined) throw new SdnaFormatError('a struct refers to a type or name that does not exist');
    const field = describeField(declaration, type, typeSize, tables.pointerSize, offset);
    if (!Number.isSafeInteger(field.size) || field.size < 0) throw new SdnaFormatError('a struct has a field of impossible size');
    fields.push(field);
    offset += field.size;
  }
  const fieldsByName = new Map(fields.map((field) => [field.name, field] as const));
  return { index, name: types[typeIndex]!, size: typeSizes[typeIndex]!, fields, field: (n) => fieldsByName.get(n) };
}

/**
 * Parse the payload of the `DNA1` block, written with `pointerSize` and the given byte order. Names,
 * types and the struct table are read at once; each struct's fields are worked out when it is first
 * asked for (a file describes about a thousand structs, a trace needs a few dozen).
 */
export function parseSdna(data: Buffer, pointerSize: 4 | 8, littleEndian: boolean): Sdna {
  const cursor = new SdnaCursor(data, littleEndian);
  cursor.tag('SDNA');
  cursor.tag('NAME');
  const nameAt = readNames(cursor);
  cursor.align();
  cursor.tag('TYPE');
  const types = cursor.strings(cursor.counted(data.length));
  cursor.align();
  cursor.tag('TLEN');
  const typeSizes = types.map(() => cursor.uint16());
  cursor.align();
  cursor.tag('STRC');
  const { starts, byName } = readStructTable(cursor, types);
  const structCount = starts.length;

  const tables: StructTables = { data, littleEndian, pointerSize, types, typeSizes, nameAt, starts };
  const read16 = (offset: number) => (littleEndian ? data.readUInt16LE(offset) : data.readUInt16BE(offset));
  const cache = new Map<number, SdnaStruct>();
  const structAt = (index: number): SdnaStruct | undefined => {
    if (!Number.isInteger(index) || index < 0 || index >= structCount) return undefined;
    let described = cache.get(index);
    if (!described) {
      described = describeStruct(tables, index);
      cache.set(index, described);
    }
    return described;
  };
  return {
    types,
    typeSizes,
    structCount,
    structAt,
    firstFieldType: (index) => {
      if (!Number.isInteger(index) || index < 0 || index >= structCount || read16(starts[index]! + 2) === 0) return undefined;
      return types[read16(starts[index]! + 4)];
    },
    struct: (...wanted) => {
      for (const name of wanted) {
        const index = byName.get(name);
        if (index !== undefined) return structAt(index);
      }
      return undefined;
    },
  };
}

/** Name, pointer-ness, array sizes and byte size of one field declaration such as `*mat[4]`. */
export function describeField(declaration: string, type: string, typeSize: number, pointerSize: number, offset: number): SdnaField {
  const isFunction = declaration.startsWith('(*');
  const isPointer = isFunction || declaration.charCodeAt(0) === 42;
  let start = 0;
  while (declaration.charCodeAt(start) === 42 || declaration.charCodeAt(start) === 40) start++;
  let end = start;
  while (end < declaration.length && declaration.charCodeAt(end) !== 91 && declaration.charCodeAt(end) !== 41) end++;
  const dims: number[] = [];
  if (!isFunction) {
    for (let open = declaration.indexOf('[', end); open >= 0; open = declaration.indexOf('[', open + 1)) {
      dims.push(Number.parseInt(declaration.slice(open + 1), 10));
    }
  }
  const elements = dims.reduce((a, b) => a * b, 1);
  const size = (isPointer ? pointerSize : typeSize) * elements;
  return { name: declaration.slice(start, end), declaration, type, isPointer, dims, elements, size, offset };
}
