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
  names: string[];
  types: string[];
  typeSizes: number[];
  structs: SdnaStruct[];
  /** The struct named `name` (the first of `names` found), if this file has it. */
  struct: (...names: string[]) => SdnaStruct | undefined;
}

/** Thrown by {@link parseSdna} for data that is not a valid SDNA; the reader turns it into a BlendFileError. */
export class SdnaFormatError extends Error {}

/** Parse the payload of the `DNA1` block, written with `pointerSize` and the given byte order. */
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
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const end = data.indexOf(0, at);
      if (end < 0) throw new SdnaFormatError('the structure description ends early');
      out.push(data.toString('latin1', at, end));
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
  const names = strings(counted(data.length));
  align();
  tag('TYPE');
  const types = strings(counted(data.length));
  align();
  tag('TLEN');
  const typeSizes = types.map(() => uint16());
  align();
  tag('STRC');
  const structCount = counted(data.length / 4);
  const structs: SdnaStruct[] = [];
  for (let index = 0; index < structCount; index++) {
    const typeIndex = uint16();
    const fieldCount = uint16();
    const fields: SdnaField[] = [];
    let offset = 0;
    for (let f = 0; f < fieldCount; f++) {
      const fieldType = uint16();
      const nameIndex = uint16();
      const type = types[fieldType];
      const declaration = names[nameIndex];
      if (type === undefined || declaration === undefined) throw new SdnaFormatError('a struct refers to a type or name that does not exist');
      const field = describeField(declaration, type, typeSizes[fieldType]!, pointerSize, offset);
      fields.push(field);
      offset += field.size;
    }
    const name = types[typeIndex];
    if (name === undefined) throw new SdnaFormatError('a struct refers to a type that does not exist');
    const byName = new Map(fields.map((field) => [field.name, field] as const));
    structs.push({ index, name, size: typeSizes[typeIndex]!, fields, field: (n) => byName.get(n) });
  }
  const byName = new Map<string, SdnaStruct>();
  for (const s of structs) if (!byName.has(s.name)) byName.set(s.name, s);
  return {
    names,
    types,
    typeSizes,
    structs,
    struct: (...wanted) => wanted.map((n) => byName.get(n)).find((s) => s !== undefined),
  };
}

/** Name, pointer-ness, array sizes and byte size of one field declaration such as `*mat[4]`. */
export function describeField(declaration: string, type: string, typeSize: number, pointerSize: number, offset: number): SdnaField {
  const isFunction = declaration.startsWith('(*');
  const isPointer = isFunction || declaration.startsWith('*');
  const dims = isFunction ? [] : [...declaration.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  const elements = dims.reduce((a, b) => a * b, 1);
  const name = declaration.replace(/^[(*]+/, '').replace(/[)[].*$/, '');
  const size = (isPointer ? pointerSize : typeSize) * elements;
  return { name, declaration, type, isPointer, dims, elements, size, offset };
}
