import type { FramesSeen, RenderClock, RenderTiming } from './render-clock';
import { renderClockOf } from './render-clock';

/** A job's render clock as `status --json` and `watch --json` give it: the same rule as the app's queue. */
export interface ClockSummary {
  state: RenderClock['phase'];
  /** Jobs before it while it waits for its turn (null when the farm does not say, or it does not wait). */
  jobsAhead: number | null;
  /** While it waits: seconds until it is expected to start, from the work ahead of it (null when the farm cannot know). */
  startsInSeconds: number | null;
  /** While it waits and cannot say when it starts: why, in the farm's words ("Waiting for a render worker tagged big-ram"). */
  waitingReason: string | null;
  renderingSince: string | null;
  /** Seconds left from its own frame rate while it renders; null when not known. */
  timeLeftSeconds: number | null;
}

/** The clock of a job's timing at `now`, in the shape the command line prints. */
export function clockSummaryOf(timing: RenderTiming, now: number): ClockSummary {
  const clock = renderClockOf(timing, now);
  return {
    state: clock.phase,
    jobsAhead: clock.phase === 'waiting' ? clock.jobsAhead : null,
    startsInSeconds: clock.phase === 'waiting' ? clock.startsInSeconds : null,
    waitingReason: clock.phase === 'waiting' ? clock.reason : null,
    renderingSince: timing.renderingSince,
    timeLeftSeconds: clock.phase === 'rendering' ? clock.leftSeconds : null,
  };
}

/**
 * When a watcher saw frames done, after a read at `now` found `completedFrames` (`before` done at the
 * previous read): a rise is noted (the first rise and its count kept); no rise keeps what was seen.
 */
export function framesSeenAfter(seen: FramesSeen | null, before: number, completedFrames: number, now: number): FramesSeen | null {
  if (completedFrames <= before) return seen;
  const at = new Date(now).toISOString();
  return { firstAt: seen?.firstAt ?? at, firstCount: seen?.firstCount ?? completedFrames, lastAt: at };
}
