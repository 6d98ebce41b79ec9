/** Seconds between two ISO times (or until `now` when the end is open). */
export function secondsBetween(start: string | null, end: string | null, now: number): number | null {
  if (!start) return null;
  const from = Date.parse(start);
  const to = end ? Date.parse(end) : now;
  return Number.isNaN(from) || Number.isNaN(to) ? null : Math.max(0, (to - from) / 1000);
}

/** When something was submitted, short: the time for today, else the day and time. */
export function formatWhen(iso: string, now: number): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '–';
  const today = new Date(now).toDateString() === at.toDateString();
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return today ? time : `${at.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}`;
}
