import { z } from 'zod';

/** Request of `jobs.log`: a job, and the byte of its log to read from (default 0, the whole log). */
export const jobLogRequestSchema = z.object({ jobId: z.string().min(1).max(200), since: z.number().int().min(0).optional() }).strict();

/**
 * A job's log for the details' Log tab: what Blender printed, from `offset` to `nextOffset` (ask again
 * from `nextOffset` for new lines; `cutBytes` of a long log's middle were left out), or, from a farm
 * that keeps no log, why the job failed (null when it did not).
 */
export type JobLogView =
  | { kind: 'log'; text: string; offset: number; nextOffset: number; cutBytes: number }
  | { kind: 'none'; failure: string | null };

/** Lines that say something went wrong: errors, tracebacks, crashes (a render worker's lines start with its name). */
const ERROR_LINE = /^(?:\[[^\]]*\] )?(?:Error\b|ERROR\b|Traceback\b|[A-Za-z]+Error\b|Segmentation fault\b|Killed\b|Aborted\b|Out of memory\b)/;
const FAILED_LINE = /^── Failed: /;
const HEADING = /^── .* ──$/;

/**
 * The index of the line of a failed job's log that explains the failure: the first error in the part
 * of the log the job failed in (the analysis or the render), else the node's closing "Failed" line,
 * else the first error anywhere; null when no line says anything went wrong.
 */
export function firstTellingLine(lines: readonly string[]): number | null {
  const failed = lines.findLastIndex((line) => FAILED_LINE.test(line));
  let from = 0;
  if (failed !== -1) {
    for (let i = failed - 1; i >= 0; i--) {
      if (HEADING.test(lines[i]!) && !FAILED_LINE.test(lines[i]!)) {
        from = i;
        break;
      }
    }
  }
  const to = failed === -1 ? lines.length : failed;
  for (let i = from; i < to; i++) if (ERROR_LINE.test(lines[i]!)) return i;
  return failed === -1 ? null : failed;
}
