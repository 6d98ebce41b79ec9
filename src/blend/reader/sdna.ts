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
export class SdnaFormatError extends Error {}

/**
 * Parse the payload of the `DNA1` block, written with `pointerSize` and the given byte order. Names,
 * types and the struct table are read at once; each struct's fields are worked out when it is first
 * asked for (a file describes about a thousand structs, a trace needs a few dozen).
 */
export function parseSdna(data: Buffer, pointerSize: 4 | 8, littleEndian: boolean): Sdna {
  let at = 0;
  const need = (bytes: number) => {
    if (at + bytes > data.length) throw new SdnaFormatError('the structure description ends early');
  };
  const int32 = () => {
    need(4);
    const value = littleEndian ? data.readInt32LE(at) : data.readInt32BE(at);
    at += 4;
    return value;
  };
  const uint16 = () => {
    need(2);
    const value = littleEndian ? data.readUInt16LE(at) : data.readUInt16BE(at);
    at += 2;
    return value;
  };
  const tag = (expected: string) => {
    need(4);
    if (data.toString('latin1', at, at + 4) !== expected) throw new SdnaFormatError(`the structure description lacks its ${expected} section`);
    at += 4;
  };
  const strings = (count: number) => {
    const out: string[] = new Array<string>(count);
    for (let i = 0; i < count; i++) {
      const end = data.indexOf(0, at);
      if (end < 0) throw new SdnaFormatError('the structure description ends early');
      out[i] = data.toString('latin1', at, end);
      at = end + 1;
    }
    return out;
  };
  const align = () => {
    at = (at + 3) & ~3;
  };
  const counted = (max: number) => {
    const count = int32();
    if (count < 0 || count > max) throw new SdnaFormatError('the structure description has an impossible size');
    return count;
  };

  tag('SDNA');
  tag('NAME');
  const nameCount = counted(data.length);
  /** Where each field name starts; names are decoded when a struct using them is described. */
  const nameStarts = new Int32Array(nameCount);
  for (let i = 0; i < nameCount; i++) {
    const end = data.indexOf(0, at);
    if (end < 0) throw new SdnaFormatError('the structure description ends early');
    nameStarts[i] = at;
    at = end + 1;
  }
  const decodedNames = new Array<string | undefined>(nameCount);
  const nameAt = (index: number): string | undefined => {
    if (index >= nameCount) return undefined;
    let name = decodedNames[index];
    if (name === undefined) {
      const start = nameStarts[index]!;
      name = data.toString('latin1', start, data.indexOf(0, start));
      decodedNames[index] = name;
    }
    return name;
  };
  align();
  tag('TYPE');
  const types = strings(counted(data.length));
  align();
  tag('TLEN');
  const typeSizes = types.map(() => uint16());
  align();
  tag('STRC');
  const structCount = counted(data.length / 4);
  /** Offset of each struct's entry in `data`: type, field count, then (type, name) pairs. */
  const starts = new Int32Array(structCount);
  const byName = new Map<string, number>();
  for (let index = 0; index < structCount; index++) {
    starts[index] = at;
    const typeIndex = uint16();
    const fieldCount = uint16();
    need(fieldCount * 4);
    at += fieldCount * 4;
    const name = types[typeIndex];
    if (name === undefined) throw new SdnaFormatError('a struct refers to a type that does not exist');
    if (!byName.has(name)) byName.set(name, index);
  }

  const cache = new Map<number, SdnaStruct>();
  const read16 = (offset: number) => (littleEndian ? data.readUInt16LE(offset) : data.readUInt16BE(offset));
  const structAt = (index: number): SdnaStruct | undefined => {
    if (!Number.isInteger(index) || index < 0 || index >= structCount) return undefined;
    const hit = cache.get(index);
    if (hit) return hit;
    const start = starts[index]!;
    const typeIndex = read16(start);
    const fieldCount = read16(start + 2);
    const fields: SdnaField[] = [];
    let offset = 0;
    for (let f = 0; f < fieldCount; f++) {
      const type = types[read16(start + 4 + f * 4)];
      const declaration = nameAt(read16(start + 6 + f * 4));
      const typeSize = typeSizes[read16(start + 4 + f * 4)];
      if (type === undefined || declaration === undefined || typeSize === undefined) throw new SdnaFormatError('a struct refers to a type or name that does not exist');
      const field = describeField(declaration, type, typeSize, pointerSize, offset);
      fields.push(field);
      offset += field.size;
    }
    const fieldsByName = new Map(fields.map((field) => [field.name, field] as const));
    const described: SdnaStruct = { index, name: types[typeIndex]!, size: typeSizes[typeIndex]!, fields, field: (n) => fieldsByName.get(n) };
    cache.set(index, described);
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
