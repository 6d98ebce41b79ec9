import type { SdnaField, SdnaStruct } from './sdna';

/**
 * Fields Blender's code renamed, by struct as files name it: the name the code uses now, and the name
 * every .blend stores the field under. Blender writes its structure description with the names fields
 * had before a rename (makesdna turns each new name back into the old one), so files of every version
 * keep the old name; the table is the member renames of Blender's
 * `source/blender/makesdna/intern/dna_rename_defs.h` that concern fields read here.
 */
const MEMBER_RENAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  /* Renamed around Blender 2.91-2.93, when the runtime copy `filepath` became `filepath_abs`. */
  Image: { filepath: 'name' },
  Library: { filepath: 'name' },
  MovieClip: { filepath: 'name' },
  Text: { filepath: 'name' },
  VFont: { filepath: 'name' },
  bSound: { filepath: 'name' },
  /* Renamed after 2.93, in Blender 3.x and 4.x. */
  CustomDataExternal: { filepath: 'filename' },
  FileGlobal: { filepath: 'filename' },
  Mesh: { vert_data: 'vdata', edge_data: 'edata', face_data: 'pdata', loop_data: 'ldata', corner_data: 'ldata' },
  NodesModifierData: { bake_directory: 'simulation_bake_directory' },
  /* The code calls `Sequence` `Strip` and `Strip` `StripData` since Blender 4.4; files keep the old struct names. */
  Sequence: { data: 'strip', channel: 'machine' },
  Strip: { dirpath: 'dir' },
  StripElem: { filename: 'name' },
  StripProxy: { dirpath: 'dir', filename: 'file' },
};

/**
 * Names a field had in older layouts with another meaning, so a file of such a layout never gives it
 * for the name asked: `Library.filepath` of a file saved before Blender 2.93 is the absolute path the
 * saving Blender worked out for itself (written with that machine's folders), not the path it reads.
 */
const FORMER_MEANINGS: readonly { struct: string; field: string; before: number }[] = [{ struct: 'Library', field: 'filepath', before: 293 }];

/**
 * The field of `def` (a struct as a file of Blender version `version` describes it) that holds what
 * Blender's code now calls `name`: the stored name of a renamed field first, the name itself when the
 * file declares no stored name (and the name meant the same thing in that file's version); undefined
 * when the file has no such field.
 */
export function renamedField(def: SdnaStruct, name: string, version: number): SdnaField | undefined {
  const stored = MEMBER_RENAMES[def.name]?.[name];
  const field = stored === undefined ? undefined : def.field(stored);
  if (field) return field;
  if (FORMER_MEANINGS.some((m) => m.struct === def.name && m.field === name && version < m.before)) return undefined;
  return def.field(name);
}
