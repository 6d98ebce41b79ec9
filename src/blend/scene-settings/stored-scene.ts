/** An image a scene's file names on disk, as stored (not packed, not generated, not linked). */
export interface StoredImage {
  name: string;
  /** The path as stored in the file (`//textures/wood.png`, or absolute). */
  path: string;
}

/** A strip at the top of a scene's video sequencer: its type (`Sequence.type`) and whether it is muted, itself or through its channel. */
export interface StoredStrip {
  type: number;
  muted: boolean;
}

/** A scene's video sequencer as stored: whether post-processing runs it, and the strips at the top of its edit. */
export interface StoredSequencer {
  /** The post-processing "Sequencer" option. */
  enabled: boolean;
  strips: StoredStrip[];
}

/** An ID property of the scene's Cycles settings: its IDProperty type and integer value. */
export interface StoredCyclesProperty {
  type: number;
  int: number | null;
}

/**
 * The render settings of the scene a .blend opens on, as the file stores them (numbers of enums,
 * names as written), read without Blender. What Blender would make of them is decided by the node.
 */
export interface StoredScene {
  /** Version that wrote the file: major, minor, subversion. */
  fileVersion: [number, number, number];
  name: string;
  engine: string;
  frameStart: number;
  frameEnd: number;
  frameStep: number;
  fps: number;
  fpsBase: number;
  resolution: [number, number];
  resolutionPercentage: number;
  eeveeSamples: number | null;
  /** The scene's `cycles` ID properties that the file stores, by name. */
  cycles: Map<string, StoredCyclesProperty>;
  /** Names of the camera objects of the scene's collections, each once, in no particular order. */
  cameras: string[];
  activeCamera: string | null;
  viewLayers: { name: string; useForRender: boolean }[];
  activeViewLayer: string;
  image: { imtype: number; planes: number; depth: number; quality: number; compress: number; exrCodec: number; tiffCodec: number | null };
  outputPath: string;
  colour: { display: string; view: string; look: string; exposure: number; gamma: number; sequencer: string };
  usesCompositor: boolean;
  sequencer: StoredSequencer;
  images: StoredImage[];
}

/** The scene as stored, or why the reader cannot be sure of what Blender would read. */
export type StoredSceneResult = { ok: true; scene: StoredScene } | { ok: false; unsure: string };

/** Thrown inside the reader when something makes it unsure; turned into `{ ok: false }`. */
export class UnsureError extends Error {
  override readonly name = 'UnsureError';
}

/** The value, or an {@link UnsureError} saying which field could not be read. */
export function sure<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new UnsureError(`${what} cannot be read`);
  return value;
}
