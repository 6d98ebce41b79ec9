/** Where the Renderdrop add-on stands in one Blender (see Settings > Blender add-on). */
export type AddonState = 'not-installed' | 'installed' | 'outdated' | 'modified' | 'foreign';

/** One Blender found on this computer, and the Renderdrop add-on in it. */
export interface BlenderAddonView {
  /** The Blender program; names this Blender in `addon.install` and `addon.uninstall`. */
  path: string;
  /** "4.2.1" */
  version: string;
  /** "4.2": what the artist calls it. */
  series: string;
  /** Whether the add-on runs in this Blender (3.3 and newer). */
  supported: boolean;
  state: AddonState;
  /** The add-on's version installed there, when Renderdrop installed it. */
  installedVersion: string | null;
}

/** Every Blender found on this computer with the add-on's state in each. */
export interface AddonView {
  blenders: BlenderAddonView[];
  /** The add-on version this Renderdrop installs. */
  version: string | null;
  /** Why the add-on cannot be installed from here at all, in plain words; null when it can. */
  problem: string | null;
}
