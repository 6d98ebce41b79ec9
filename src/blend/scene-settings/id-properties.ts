import type { BlendFile, StructView } from '../reader';

/** IDProperty.type values read here (DNA_ID.h). */
export const IDP_INT = 1;
export const IDP_GROUP = 6;
export const IDP_BOOLEAN = 10;

/** One stored ID property: its type and, for numbers, its value. */
export interface StoredIdProperty {
  type: number;
  /** `data.val` for integer and boolean properties, else null. */
  int: number | null;
  view: StructView;
}

/** The properties of an IDProperty group by name (an empty map when it has none). */
export async function idPropertyGroup(file: BlendFile, group: StructView): Promise<Map<string, StoredIdProperty>> {
  const out = new Map<string, StoredIdProperty>();
  const data = file.embedded(group, 'data');
  if (!data) return out;
  for (const prop of await file.list(data, 'group')) {
    const type = prop.number('type');
    const name = prop.string('name');
    if (type === null || name === null) continue;
    const value = prop.embedded('data')?.number('val') ?? null;
    out.set(name, { type, int: type === IDP_INT || type === IDP_BOOLEAN ? value : null, view: prop });
  }
  return out;
}

/** The top-level ID properties of a data-block (`id.properties`). */
export async function idProperties(file: BlendFile, id: StructView): Promise<Map<string, StoredIdProperty>> {
  const header = file.embedded(id, 'id');
  const root = header ? await file.follow(header, 'properties') : null;
  return root ? idPropertyGroup(file, root) : new Map();
}
