import type { SeveredPath } from '../../blend/pack';
import type { SceneAnalysis } from '../../shared/api';

/**
 * The folder inside a job's scene folder that paths leading outside it are pointed into. It is never
 * created; resources/blender/rd_confine.py (NOT_UPLOADED) counts paths into it as outside.
 */
export const NOT_UPLOADED = '.renderdrop-not-uploaded';

/**
 * The analysis of a scene whose outside libraries and fonts were pointed at nothing before Blender
 * opened it, speaking of them by the paths the scene stores: Blender saw, and reported, the
 * replacements.
 */
export function reportSeveredAsStored(analysis: SceneAnalysis, severed: readonly SeveredPath[]): SceneAnalysis {
  if (severed.length === 0) return analysis;
  const stored = new Map(severed.map((s) => [s.replacement, s.stored]));
  const original = (path: string) => stored.get(path) ?? path;
  return {
    ...analysis,
    dependencies: analysis.dependencies.map((d) => (stored.has(d.path) ? { ...d, path: original(d.path), resolvedPath: null, exists: false } : d)),
    warnings: analysis.warnings.map((w) => {
      if (w.path === undefined || !stored.has(w.path)) return w;
      return { ...w, path: original(w.path), message: w.message.split(w.path).join(original(w.path)) };
    }),
  };
}
