import type { PathKind, PathReference, PathShape } from './path-reference';
import type { StructView } from '../reader';

/** Options of {@link fixedReference}. */
export interface ReferenceOptions {
  kind: PathKind;
  owner: string;
  shape?: PathShape;
  packed?: boolean;
  required?: boolean;
  tiles?: number[];
}

/**
 * The reference of a fixed-size path field, named as Blender's code names it now (the reader finds the
 * field holding it in the file's own layout), or null when the struct has no such field.
 */
export function fixedReference(view: StructView, field: string, options: ReferenceOptions): PathReference | null {
  const stored = view.string(field);
  const location = view.location(field);
  if (stored === null || !location) return null;
  return {
    kind: options.kind,
    owner: options.owner,
    stored,
    packed: options.packed ?? false,
    shape: options.shape ?? 'file',
    required: options.required ?? true,
    slot: { type: 'fixed', offset: location.offset, size: location.size },
    ...(options.tiles ? { tiles: options.tiles } : {}),
  };
}
