/**
 * A whole percentage of `part` in `total`, rounded down so that 100 means done, between 0 and 100
 * (0 when the total is unknown or zero).
 */
export function percent(part: number, total: number | null): number {
  if (!total || total <= 0 || !Number.isFinite(part)) return 0;
  return Math.max(0, Math.min(100, Math.floor((part * 100) / total)));
}
