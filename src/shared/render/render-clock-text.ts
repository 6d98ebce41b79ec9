import { countOf, formatDuration } from '../text';
import type { RenderClock } from './render-clock';

/** A waiting job in words: "Waiting — 2 jobs ahead", or just "Waiting" when the count is unknown or none. */
export function waitingText(jobsAhead: number | null): string {
  return jobsAhead !== null && jobsAhead > 0 ? `Waiting — ${countOf(jobsAhead, 'job')} ahead` : 'Waiting';
}

/** When a waiting job is expected to start, in words: "Starts in about 4 min", "Starts in under a minute". */
export function startsInText(seconds: number): string {
  if (seconds < 60) return 'Starts in under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `Starts in about ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `Starts in about ${hours} h${rest > 0 ? ` ${String(rest).padStart(2, '0')} min` : ''}`;
}

/** When a waiting job starts, short enough for a queue row's narrow time column: "in ~4 min", "in < 1 min", "in ~1 h 05". */
export function startsInShort(seconds: number): string {
  if (seconds < 60) return 'in < 1 min';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `in ~${minutes} min`;
  const rest = minutes % 60;
  return `in ~${Math.floor(minutes / 60)} h${rest > 0 ? ` ${String(rest).padStart(2, '0')}` : ''}`;
}

/**
 * What a waiting job's line says: when it starts ("Starts in about 4 min"), else the farm's words for
 * why it cannot say ("Waiting for a render worker tagged big-ram"), else the jobs ahead ("Waiting — 2 jobs ahead").
 */
export function waitingWords(clock: Pick<Extract<RenderClock, { phase: 'waiting' }>, 'jobsAhead' | 'startsInSeconds' | 'reason'>): string {
  if (clock.startsInSeconds !== null) return startsInText(clock.startsInSeconds);
  if (clock.reason !== null) return clock.reason;
  return waitingText(clock.jobsAhead);
}

/** The time column of a queue row: a main line, a smaller line under it, and the whole said once for a tooltip. */
export interface RowTimeText {
  main: string;
  sub: string | null;
  title: string;
}

/** What a queue row's time column says of a job that is waiting, rendering or ended; null before it is sent to render. */
export function rowTimeText(clock: RenderClock): RowTimeText | null {
  switch (clock.phase) {
    case 'before':
      return null;
    case 'waiting': {
      const ahead = clock.jobsAhead !== null && clock.jobsAhead > 0 ? `${countOf(clock.jobsAhead, 'job')} ahead` : null;
      const starts = clock.startsInSeconds !== null ? startsInShort(clock.startsInSeconds) : null;
      const words = clock.startsInSeconds !== null || clock.reason !== null ? waitingWords(clock) : waitingText(clock.jobsAhead);
      const title = ahead !== null && clock.startsInSeconds !== null ? `${words} — ${ahead}` : words;
      return { main: 'Waiting', sub: starts ?? ahead, title: `${title}; the clock starts when it renders.` };
    }
    case 'starting':
      return { main: 'Starting', sub: null, title: 'The render is starting; the clock starts with it.' };
    case 'rendering':
      return { main: formatDuration(clock.renderedSeconds), sub: leftText(clock), title: 'Time spent rendering' };
    case 'ended':
      return { main: formatDuration(clock.renderedSeconds), sub: null, title: clock.renderedSeconds === null ? 'It did not render' : 'Time spent rendering' };
  }
}

function leftText(clock: Extract<RenderClock, { phase: 'rendering' }>): string {
  if (clock.framesDone) return 'finishing';
  return clock.leftSeconds === null ? 'estimating' : `${formatDuration(clock.leftSeconds)} left`;
}

/** A job's time as one fact with its label, for the details and `renderdrop status`. */
export function clockFact(clock: RenderClock): { label: string; text: string } {
  switch (clock.phase) {
    case 'before':
      return { label: 'Time taken', text: 'Not rendered yet' };
    case 'waiting':
      return { label: 'Time', text: waitingWords(clock) };
    case 'starting':
      return { label: 'Time', text: 'Starting to render' };
    case 'rendering': {
      const left = clock.framesDone ? 'all frames done, finishing' : clock.leftSeconds === null ? 'time left known after the first frame' : `about ${formatDuration(clock.leftSeconds)} left`;
      return { label: 'Time', text: `Rendering for ${formatDuration(clock.renderedSeconds)}, ${left}` };
    }
    case 'ended':
      return { label: 'Time taken', text: clock.renderedSeconds === null ? 'It did not render' : `${formatDuration(clock.renderedSeconds)} rendering` };
  }
}

/** A job's time in a few words for a list column ("Waiting — 1 job ahead", "1 min 02 s, 30 s left", "50 s"). */
export function clockShortText(clock: RenderClock): string {
  switch (clock.phase) {
    case 'before':
      return '-';
    case 'waiting':
      return clock.startsInSeconds !== null ? startsInText(clock.startsInSeconds) : waitingText(clock.jobsAhead);
    case 'starting':
      return 'Starting';
    case 'rendering':
      return `${formatDuration(clock.renderedSeconds)}, ${leftText(clock)}`;
    case 'ended':
      return clock.renderedSeconds === null ? '-' : formatDuration(clock.renderedSeconds);
  }
}
