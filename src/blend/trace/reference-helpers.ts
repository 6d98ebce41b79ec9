import type { PathKind, PathReference, PathShape } from './path-reference';
import type { StructView } from '../reader/struct-view';


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
 * The reference of a fixed-size path field (the first of `fields` the struct has), or null when the
 * struct has none of them.
 */
export function fixedReference(view: StructView, fields: string[], options: ReferenceOptions): PathReference | null {
  const name = view.pick(...fields);
  if (!name) return null;
  const stored = view.string(name);
  const location = view.location(name);
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
