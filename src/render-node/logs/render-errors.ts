import { blenderErrorsMessage, type AnalysisWarning, type SceneAnalysis } from '../../shared/api';

/** A line Blender (or Python inside it) prints when something went wrong. */
const ERROR_LINE = /^(Error|ERROR|Traceback|[A-Za-z]+Error)\b/;
/** Lines that say an error follows rather than what it is. */
const UNTELLING = /^Traceback \(most recent call last\):?$|^Error:?$/;
/** The heading the node writes before each render part of a job's log (see job-runner.ts). */
const RENDER_HEADING = /^── Render\b/;
/** A render worker's name before each of its lines (worker-log-intake.ts). */
const WORKER_PREFIX = /^\[[^\]]*\] /;
/** Longest line quoted. */
const MAX_LINE = 200;

/**
 * The error lines Blender printed while rendering, from a job's log (the render parts only: what the
 * scene analysis printed is not the render's): how many, and the first that says what went wrong.
 */
export function renderErrorsOf(logText: string): { first: string; count: number } | null {
  let rendering = false;
  let count = 0;
  let first: string | null = null;
  for (const raw of logText.split(/\r?\n/)) {
    if (raw.startsWith('── ')) {
      rendering = RENDER_HEADING.test(raw);
      continue;
    }
    if (!rendering) continue;
    const line = raw.replace(WORKER_PREFIX, '').trim();
    if (!ERROR_LINE.test(line)) continue;
    count++;
    if (first === null && !UNTELLING.test(line)) first = line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
  }
  return count === 0 ? null : { first: first ?? 'Traceback (most recent call last)', count };
}

/**
 * The analysis of a job whose render is done, with a `blender-errors` warning when its log holds
 * Blender's errors (replacing one an earlier run of the render added); the same analysis otherwise.
 */
export function withRenderErrors(analysis: SceneAnalysis, logText: string): SceneAnalysis {
  const errors = renderErrorsOf(logText);
  const others = analysis.warnings.filter((w) => w.code !== 'blender-errors');
  if (errors === null) return others.length === analysis.warnings.length ? analysis : { ...analysis, warnings: others };
  const warning: AnalysisWarning = { code: 'blender-errors', message: blenderErrorsMessage(errors.first, errors.count) };
  return { ...analysis, warnings: [...others, warning] };
}
