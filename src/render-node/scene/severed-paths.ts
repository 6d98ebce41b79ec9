import type { SeveredPath } from '../../blend/pack';
import type { SceneAnalysis } from '../../shared/api';

/**
 * The folder inside a job's scene folder that paths leading outside it are pointed into. It is never
 * created; resources/blender/rd_confine.py (NOT_UPLOADED) counts paths into it as outside.
 */
export const NOT_UPLOADED = '.renderdrop-not-uploaded';

/** The `<NOT_UPLOADED>/<n>/` part of a path that names which severed path it is, or null. */
function severedMark(path: string): string | null {
  const parts = path.replace(/\\/g, '/').split('/');
  const at = parts.lastIndexOf(NOT_UPLOADED);
  return at >= 0 && at + 1 < parts.length - 1 && /^\d+$/.test(parts[at + 1]!) ? `${NOT_UPLOADED}/${parts[at + 1]}/` : null;
}

/**
 * The analysis of a scene whose outside libraries and fonts were pointed at nothing before Blender
 * opened it, speaking of them by the paths the scene stores: Blender saw, and reported, the
 * replacements. A replacement is known by its numbered folder, not by its exact text: Blender shows
 * the path of a library linked by another library relative to the opened scene, not as its holder
 * stores it.
 */
export function reportSeveredAsStored(analysis: SceneAnalysis, severed: readonly SeveredPath[]): SceneAnalysis {
  if (severed.length === 0) return analysis;
  const stored = new Map(severed.flatMap((s) => {
    const mark = severedMark(s.replacement);
    return mark === null ? [] : [[mark, s.stored] as const];
  }));
  const original = (path: string): string | undefined => {
    const mark = severedMark(path);
    return mark === null ? undefined : stored.get(mark);
  };
  return {
    ...analysis,
    dependencies: analysis.dependencies.map((d) => {
      const path = original(d.path);
      return path === undefined ? d : { ...d, path, resolvedPath: null, exists: false };
    }),
    warnings: analysis.warnings.map((w) => {
      const path = w.path === undefined ? undefined : original(w.path);
      if (path === undefined) return w;
      return { ...w, path, message: w.message.split(w.path!).join(path) };
    }),
  };
}
