import { z } from 'zod';
import { analysisWarningSchema, type AnalysisWarning } from './analysis';
import type { Job } from './job';
import { JOB_STATUS_TABLE } from './job-status';

/**
 * Codes of entries that need nothing done, said so the artist knows (the farm runs the scene's
 * Python): every surface shows them, apart from the warnings, and none puts a ⚠ on a row.
 */
const NOTE_CODES: ReadonlySet<string> = new Set(['python-runs', 'farm-delivery']);

/**
 * Warnings about a condition that passes, with when it may still hold: "no render worker is connected,
 * the render will wait" stops being true once the render has started, and while the render waits a
 * farm that says where it stands in line (`waiting`, a Renderdrop node's extra) says why in its
 * `statusMessage`, read afresh each time, in place of what was true when the scene was read.
 */
const PASSING: Readonly<Record<string, (job: WarnedJob) => boolean>> = {
  'no-render-workers': ({ status, waiting }) => JOB_STATUS_TABLE[status].stage === 'validation' || JOB_STATUS_TABLE[status].stage === 'review' || (status === 'booting' && waiting === undefined),
};

/** What a job's warnings are read from: its status, its analysis and, from a Renderdrop node, where it waits in line. */
type WarnedJob = Pick<Job, 'status' | 'analysis'> & { waiting?: unknown };

/** Whether an entry of a job's warnings is a note (nothing to act on) rather than a warning. */
export function isNote(warning: Pick<AnalysisWarning, 'code'>): boolean {
  return NOTE_CODES.has(warning.code);
}

/** One entry as another server may send it: a code is enough (its message is then the code). */
const looseWarningSchema = z.looseObject({ code: z.string(), message: z.string().optional(), path: z.string().optional() });

/**
 * A job's one list of warnings, as every surface shows it (the review, the queue row, the details,
 * `renderdrop status`, `submit --json`, the add-on): what the farm found before and at validation and
 * what it found while rendering (the local node adds Blender's errors from the render's log), read
 * defensively from `analysis.warnings`, without those about a condition that has passed for this
 * status. Notes ({@link isNote}) are in it too. An entry without a message (another server's) reads as
 * its code. Empty when the job has none or no readable analysis.
 */
export function jobWarningsOf(job: WarnedJob): AnalysisWarning[] {
  const analysis = job.analysis;
  if (analysis === null || typeof analysis !== 'object' || !('warnings' in analysis) || !Array.isArray(analysis.warnings)) return [];
  const warnings: AnalysisWarning[] = [];
  for (const entry of analysis.warnings as unknown[]) {
    const exact = analysisWarningSchema.safeParse(entry);
    const loose = exact.success ? null : looseWarningSchema.safeParse(entry);
    const warning = exact.success ? exact.data : loose?.success ? { code: loose.data.code, message: loose.data.message ?? loose.data.code, ...(loose.data.path !== undefined ? { path: loose.data.path } : {}) } : null;
    if (warning && (PASSING[warning.code]?.(job) ?? true)) warnings.push(warning);
  }
  return warnings;
}

/** Opening and closing marks around the line a `blender-errors` warning quotes. */
const QUOTE_OPEN = '“';
const QUOTE_CLOSE = '”';

/**
 * The message of a `blender-errors` warning: how many error lines a render's log holds and the first
 * telling one, quoted (see {@link blenderErrorLineOf}).
 */
export function blenderErrorsMessage(firstLine: string, count: number): string {
  const what = count === 1 ? 'an error' : `${count} errors`;
  return `Blender reported ${what} while rendering: ${QUOTE_OPEN}${firstLine}${QUOTE_CLOSE}. The frames may differ from your Blender's; the job's log has the details.`;
}

/** The first telling line a `blender-errors` warning quotes, or null for any other warning. */
export function blenderErrorLineOf(warning: Pick<AnalysisWarning, 'code' | 'message'>): string | null {
  if (warning.code !== 'blender-errors') return null;
  const start = warning.message.indexOf(QUOTE_OPEN);
  const end = warning.message.lastIndexOf(QUOTE_CLOSE);
  return start >= 0 && end > start ? warning.message.slice(start + 1, end) : null;
}
