/**
 * A duration in seconds for people: `45 s`, `3 min 05 s`, `2 h 04 min`; `under 1 s` for a moment and
 * `–` when there is no duration.
 */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '–';
  if (seconds > 0 && seconds < 0.5) return 'under 1 s';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}
