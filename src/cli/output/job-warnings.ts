import { analysisForArtist, type PackSummary } from '../../core/packing';
import { isNote, jobWarningsOf, type AnalysisWarning, type Job } from '../../shared/api';
import { safeText } from '../terminal';

/** A job's warnings as `status` and `submit --json` give them: code and message, no path. */
export interface JobWarning {
  code: string;
  message: string;
}

/**
 * A job's one list of warnings (jobWarningsOf) with packed files named as the artist knows them, when
 * the submission that sent it is known; each with its code and message (a path the message does not
 * name is added to it).
 */
export function artistJobWarnings(job: Pick<Job, 'status' | 'analysis'> & { waiting?: unknown }, packing: PackSummary | null): JobWarning[] {
  const warnings: AnalysisWarning[] = jobWarningsOf({ status: job.status, analysis: analysisForArtist(job.analysis, packing, 'disk'), waiting: job.waiting });
  return warnings.map((w) => ({ code: w.code, message: w.path !== undefined && !w.message.includes(w.path) ? `${w.message} (${w.path})` : w.message }));
}

/** The warnings as lines for the terminal: notes first (`Note:`), then warnings marked with `!`. */
export function formatJobWarnings(warnings: readonly JobWarning[]): string[] {
  const notes = warnings.filter((w) => isNote(w));
  const others = warnings.filter((w) => !isNote(w));
  const lines = notes.map((w) => `Note: ${safeText(w.message)}`);
  if (others.length > 0) lines.push(others.length === 1 ? 'Warning:' : 'Warnings:', ...others.map((w) => `  ! ${safeText(w.message)}`));
  return lines;
}
