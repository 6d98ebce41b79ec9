/** A Blender version as `blender --version` prints it. */
export interface BlenderVersion {
  /** The full version, "4.2.1" (with " LTS" or an " Alpha" suffix dropped). */
  version: string;
  /** Major and minor, "4.2": the name of its user folder. */
  series: string;
}

/** The oldest Blender the add-on supports. */
export const OLDEST_ADDON_BLENDER = '3.3';

/** The version in the first `Blender X.Y[.Z]` line of `blender --version`, or null. */
export function parseBlenderVersion(output: string): BlenderVersion | null {
  const match = /^Blender (\d+)\.(\d+)(?:\.(\d+))?/m.exec(output);
  if (!match) return null;
  const [major, minor, patch] = [match[1]!, match[2]!, match[3]];
  return { version: patch === undefined ? `${major}.${minor}` : `${major}.${minor}.${patch}`, series: `${Number(major)}.${Number(minor)}` };
}

/** Whether a Blender series ("3.4") is one the add-on supports. */
export function addonSupports(series: string): boolean {
  const [major = 0, minor = 0] = series.split('.').map(Number);
  const [oldMajor = 0, oldMinor = 0] = OLDEST_ADDON_BLENDER.split('.').map(Number);
  return major > oldMajor || (major === oldMajor && minor >= oldMinor);
}
