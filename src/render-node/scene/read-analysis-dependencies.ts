import { stat } from 'node:fs/promises';
import type { StoredImage } from '../../blend/scene-settings';
import type { AnalysisWarning, SceneDependency } from '../../shared/api';
import { ReaderUnsure } from './read-analysis-output';
import { pyDirname, pyJoin, pyNormpath } from './python-paths';

/** Where the node sends outside paths before Blender opens a scene (rd_confine.NOT_UPLOADED). */
const NOT_UPLOADED = '.renderdrop-not-uploaded';

/** Where the analysis resolves paths: the opened .blend and the top of the uploaded files, both absolute. */
export interface PathBase {
  blendPath: string;
  root: string;
}

/** rd_confine.resolve for data of the opened file: absolute and normalised, or null. */
export function resolveStored(stored: string, blendPath: string): string | null {
  if (!stored) return null;
  let path = stored;
  if (path.startsWith('//') || [':\\', ':/'].includes(path.slice(1, 3))) path = path.slice(0, 2) + path.slice(2).replace(/\\/g, '/');
  if (path.startsWith('//')) path = pyJoin(pyDirname(blendPath), path.slice(2));
  if (path.startsWith('//') || !path.startsWith('/')) return null;
  return pyNormpath(path);
}

function inside(path: string | null, root: string): boolean {
  if (path === null) return false;
  const base = pyNormpath(root);
  const normal = pyNormpath(path);
  return normal === base || normal.startsWith(`${base.replace(/\/+$/, '')}/`);
}

/** rd_confine.outside_root: not inside the uploaded files, or severed before Blender opened the scene. */
export function outsideRoot(path: string | null, root: string): boolean {
  return !inside(path, root) || inside(path, pyJoin(pyNormpath(root), NOT_UPLOADED));
}

/** rd_confine.relative_to for a path inside `root`. */
export function relativeTo(path: string, root: string): string {
  const base = pyNormpath(root);
  const normal = pyNormpath(path);
  if (normal === base) return '.';
  return normal.slice(base.replace(/\/+$/, '').length + 1);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The dependencies and warnings analyze.py's Collector gives for plain images, in the same order. */
export async function imageDependencies(
  images: readonly StoredImage[],
  base: PathBase,
): Promise<{ dependencies: SceneDependency[]; warnings: AnalysisWarning[] }> {
  const dependencies: SceneDependency[] = [];
  const warnings: AnalysisWarning[] = [];
  const seen = new Set<string>();
  for (const { name, path: stored } of images) {
    if (stored.includes('\\')) throw new ReaderUnsure(`the path of image "${name}" has backslashes, which Blender rewrites as it opens the file`);
    const resolved = resolveStored(stored, base.blendPath);
    const outside = outsideRoot(resolved, base.root);
    const key = JSON.stringify(['image', resolved ?? stored, name]);
    if (seen.has(key)) continue;
    seen.add(key);
    const exists = !outside && resolved !== null && (await isFile(resolved));
    const resolvedPath = outside || resolved === null ? null : relativeTo(resolved, base.root);
    dependencies.push({ kind: 'image', name, path: stored, resolvedPath, packed: false, exists });
    if (exists) continue;
    const label = `Image "${name}"`;
    warnings.push({
      code: 'missing-dependency',
      message: outside
        ? `${label} uses ${stored}, outside the uploaded files: the node never reads it. Put the file in a .zip with the scene and point the scene at it with a relative path (//...).`
        : `${label} is missing: ${stored} was not uploaded with the scene.`,
      path: stored,
    });
  }
  return { dependencies, warnings };
}
