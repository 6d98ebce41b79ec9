/** When something was submitted, short: the time for today, else the day and time. */
export function formatWhen(iso: string, now: number): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '–';
  const today = new Date(now).toDateString() === at.toDateString();
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return today ? time : `${at.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}`;
}
