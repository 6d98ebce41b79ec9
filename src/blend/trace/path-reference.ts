/** What kind of data-block or setting a path belongs to. */
export type PathKind =
  | 'image'
  | 'library'
  | 'sound'
  | 'movie-clip'
  | 'font'
  | 'cache-file'
  | 'volume'
  | 'sequencer-strip'
  | 'text'
  | 'mesh-cache'
  | 'ocean-cache'
  | 'fluid-cache'
  | 'point-cache'
  | 'shader-script'
  | 'ies-light'
  | 'multires-displacement'
  | 'brush-icon'
  | 'asset-source'
  | 'geometry-nodes-bake'
  | 'node-file';

/**
 * How a stored path names files: one file; a numbered sequence (digits or `#` in the file name, every
 * frame file); UDIM tiles (`<UDIM>`/`<UVTILE>` or 1001 in the name); a folder of cache files; or the
 * implicit `blendcache_<name>` folder beside the .blend (point caches on disk without a path of their own).
 */
export type PathShape = 'file' | 'sequence' | 'udim' | 'directory' | 'blendcache';

/** Where a path is stored in the decompressed .blend, so a copy can point elsewhere. */
export type PathSlot =
  /** A fixed-size `char[size]` holding the whole path. */
  | { type: 'fixed'; offset: number; size: number }
  /** A `char[size]` holding the folder; the file name (`file`) is stored elsewhere and kept. */
  | { type: 'folder'; offset: number; size: number; file: string }
  /** A path in a block of its own (e.g. a text's file path); the block may be resized. */
  | { type: 'block'; headerOffset: number; dataOffset: number; size: number };

/** One path as a .blend stores it, as Blender lists it (`bpy.utils.blend_paths`). */
export interface PathReference {
  kind: PathKind;
  /** Name of the data-block that holds it, without its two-letter type prefix. */
  owner: string;
  /** The path exactly as stored (and as Blender reports it). */
  stored: string;
  /** The data is packed inside the .blend, so nothing on disk is needed. */
  packed: boolean;
  /**
   * A library whose linked data-blocks are packed in the .blend (5.0's packed linked data) without the
   * library itself being packed: counted as packed, though Blender keeps its path.
   */
  archived?: boolean;
  shape: PathShape;
  /** UDIM tile numbers of a tiled image. */
  tiles?: number[];
  /**
   * The folder inside the stored one that Blender reads (a geometry-nodes bake kept in its modifier's
   * bake folder reads `<bake folder>/<bake id>`); the stored path still names the outer folder.
   */
  subfolder?: string;
  /** False for paths Blender lists but rendering never reads (brush icons, asset origins). */
  required: boolean;
  slot: PathSlot | null;
}
