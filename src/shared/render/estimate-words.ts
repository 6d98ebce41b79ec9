import { currentRunOf, estimateOf, type Job, type JobEstimate, timelineOf } from '../api';

type Unit = 's' | 'min' | 'h';

/** A rounded amount of time and its unit: seconds under a minute, whole minutes under two hours, else hours to the half. */
function rounded(seconds: number): { value: string; unit: Unit } {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return { value: String(s), unit: 's' };
  const minutes = Math.round(s / 60);
  if (minutes < 120) return { value: String(minutes), unit: 'min' };
  return { value: String(Math.round((s / 3600) * 2) / 2), unit: 'h' };
}

/** A time as an estimate says it: "42 min", "50 s", "2.5 h". */
export function roughDuration(seconds: number): string {
  const r = rounded(seconds);
  return `${r.value} ${r.unit}`;
}

/** A likely range: "35–50 min", with the unit once when both ends share it ("50 s–2 min" otherwise). */
export function roughRange(low: number, high: number, withUnit = true): string {
  const a = rounded(low);
  const b = rounded(high);
  if (a.unit === b.unit) return a.value === b.value ? `${a.value}${withUnit ? ` ${a.unit}` : ''}` : `${a.value}–${b.value}${withUnit ? ` ${b.unit}` : ''}`;
  return `${a.value} ${a.unit}–${b.value} ${b.unit}`;
}

/** The node's estimate as the command line says it: "about 42 min, likely 35–50 min". */
export function estimateRangeText(estimate: Pick<JobEstimate, 'seconds' | 'low' | 'high'>): string {
  if (roughDuration(estimate.low) === roughDuration(estimate.high)) return `about ${roughDuration(estimate.seconds)}`;
  return `about ${roughDuration(estimate.seconds)}, likely ${roughRange(estimate.low, estimate.high)}`;
}

/** The node's estimate as the review shows it: "About 42 min (likely 35–50)", the unit said once when the range shares it. */
export function estimateReviewText(estimate: Pick<JobEstimate, 'seconds' | 'low' | 'high'>): string {
  const main = rounded(estimate.seconds);
  const low = rounded(estimate.low);
  const high = rounded(estimate.high);
  if (low.unit === high.unit && low.value === high.value) return `About ${main.value} ${main.unit}`;
  const sameUnit = low.unit === main.unit && high.unit === main.unit;
  return `About ${main.value} ${main.unit} (likely ${roughRange(estimate.low, estimate.high, !sameUnit)})`;
}

/** A finished job's estimate against the time it took: "Estimated 42 min, took 45 min". */
export function estimatedTookText(estimatedSeconds: number, tookSeconds: number): string {
  return `Estimated ${roughDuration(estimatedSeconds)}, took ${roughDuration(tookSeconds)}`;
}

/** The render time a job took: from its latest start of rendering to its frames being done (else its end); null before. */
export function renderTookSeconds(job: Job): number | null {
  const run = currentRunOf(timelineOf(job));
  const since = run.filter((e) => e.status === 'rendering')[0]?.at;
  const until = run.find((e) => e.status === 'finalizing' || e.status === 'completed')?.at;
  if (!since || !until) return null;
  const took = (Date.parse(until) - Date.parse(since)) / 1000;
  return Number.isFinite(took) && took >= 0 ? took : null;
}

/**
 * A job's estimate from its farm, in the command line's words: "about 42 min, likely 35–50 min" before
 * it renders, the same with "left" while it renders, and "Estimated 42 min, took 45 min" once it
 * completed; null without one.
 */
export function jobEstimateText(job: Job): string | null {
  const estimate = estimateOf(job);
  if (!estimate) return null;
  if (job.status === 'completed') {
    const took = renderTookSeconds(job);
    return took === null ? null : estimatedTookText(estimate.seconds, took);
  }
  return estimate.basis === 'frames' ? `${estimateRangeText(estimate)} left` : estimateRangeText(estimate);
}
