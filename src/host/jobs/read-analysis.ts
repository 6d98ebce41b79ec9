import type { SceneAnalysis } from '../../shared/api';

/** The analysis when `value` looks like the local node's shape, else null. */
export function readAnalysis(value: unknown): SceneAnalysis | null {
  if (!value || typeof value !== 'object') return null;
  const a = value as Partial<SceneAnalysis>;
  if (typeof a.frameStart !== 'number' || typeof a.frameEnd !== 'number' || !Array.isArray(a.cameras)) return null;
  return { ...(value as SceneAnalysis), warnings: Array.isArray(a.warnings) ? a.warnings : [], dependencies: Array.isArray(a.dependencies) ? a.dependencies : [] };
}
