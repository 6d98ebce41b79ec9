import { blenderPlacesOf, type BlenderPlaceSource } from '../../node-common/blender-places';

/** How a Blender executable was found. */
export type BlenderOrigin = 'configured' | 'PATH' | 'installed' | 'steam';

/** A place a Blender executable may be. */
export interface BlenderPlace {
  path: string;
  origin: BlenderOrigin;
}

/** What {@link blenderPlaces} looks at; `listDir` lists a folder ([] when it cannot be read). */
export interface PlaceOptions {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Blenders the person chose (settings, `--blender`): first, in this order. */
  configured?: readonly string[];
  listDir: (dir: string) => string[];
}

/**
 * Every place a Blender may be, most specific first and each path once: the configured ones,
 * `BLENDER_PATH`, each `PATH` entry, then the usual install folders of the platform (versioned folders
 * and macOS bundles newest first) and Steam's: the render node's list (`node-common/blender-places`).
 */
export function blenderPlaces(o: PlaceOptions): BlenderPlace[] {
  return blenderPlacesOf({ platform: o.platform, env: o.env, configured: o.configured ?? [], listDir: o.listDir }).map((place) => ({ path: place.path, origin: originOf(place.source) }));
}

function originOf(source: BlenderPlaceSource): BlenderOrigin {
  if (source === 'explicit' || source === 'configured' || source === 'BLENDER_PATH') return 'configured';
  if (source === 'PATH' || source === 'steam') return source;
  return 'installed';
}
