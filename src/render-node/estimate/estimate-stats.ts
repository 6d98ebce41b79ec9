/** How right a node's estimates have been over its finished jobs. */
export interface EstimateStats {
  /** Finished jobs that had an estimate before Start. */
  count: number;
  /** Median of |estimate − took| / took, as a fraction (0.1 = 10 %); null without jobs. */
  medianError: number | null;
  /** The largest such error; null without jobs. */
  worstError: number | null;
  /** Share of jobs whose estimate was within 20 % of the time taken (0..1); null without jobs. */
  within20: number | null;
}

/** The errors of estimates given before Start against the render times taken. */
export function estimateStats(records: readonly { given: { seconds: number } | null; tookSeconds: number | null }[]): EstimateStats {
  const errors = records
    .filter((r) => r.given !== null && r.tookSeconds !== null && r.tookSeconds > 0)
    .map((r) => Math.abs(r.given!.seconds - r.tookSeconds!) / r.tookSeconds!)
    .sort((a, b) => a - b);
  if (errors.length === 0) return { count: 0, medianError: null, worstError: null, within20: null };
  const mid = Math.floor(errors.length / 2);
  const median = errors.length % 2 === 1 ? errors[mid]! : (errors[mid - 1]! + errors[mid]!) / 2;
  return { count: errors.length, medianError: median, worstError: errors.at(-1)!, within20: errors.filter((e) => e <= 0.2).length / errors.length };
}
