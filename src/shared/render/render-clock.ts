import { currentRunOf, estimateOf, isTerminalStatus, type Job, type JobStatus, progressOf, statusMessageOf, timelineOf } from '../api';

/** What a job's times are worked out from: the same for the app's queue and the command line. */
export interface RenderTiming {
  status: JobStatus;
  /** When the job began rendering (its first `rendering`), not when it joined the line. */
  renderingSince: string | null;
  /** When it ended (completed, failed or canceled). */
  endedAt: string | null;
  completedFrames: number;
  totalFrames: number;
  /** Set while it waits for its turn; `jobsAhead` is null when the farm does not say how many are before it. */
  waiting: WaitingInLine | null;
  /** Whether the server says the job holds a render slot (it is starting, not waiting); false when it does not say. */
  running: boolean;
  /** When frames were seen done, by someone who watched it render; null otherwise. */
  framesSeen?: FramesSeen | null;
  /**
   * The time left the farm said (a Renderdrop node's `estimate` from the frames done, read along the
   * shot, so it holds when frames cost more toward the end) and when it was read (ms since the epoch):
   * it counts down from then; the job's own frame rate says the time left without it, or once it ran out.
   */
  farmLeft?: FarmLeft | null;
}

/**
 * A job waiting for its turn: the jobs ahead of it, when it is expected to start (seconds from the
 * read, null when the farm cannot know) and, when it cannot say, why in the farm's words.
 */
export interface WaitingInLine {
  jobsAhead: number | null;
  startsInSeconds?: number | null;
  reason?: string | null;
}

/** When a watcher saw the frame count rise: the first time (and the count then) and the latest time. */
export interface FramesSeen {
  firstAt: string;
  firstCount: number;
  lastAt: string;
}

/** A farm's time left of a render (seconds) as read at `at` (ms since the epoch). */
export interface FarmLeft {
  seconds: number;
  at: number;
}

/** The farm's time left counted down to `now`; null without one or once it ran out. */
function farmLeftAt(left: FarmLeft | null | undefined, now: number): number | null {
  if (!left) return null;
  const remaining = Math.round(left.seconds - Math.max(0, now - left.at) / 1000);
  return remaining > 0 ? remaining : null;
}

/** Where a job stands in time, for the artist. */
export type RenderClock =
  | { phase: 'before' }
  | { phase: 'waiting'; jobsAhead: number | null; startsInSeconds: number | null; reason: string | null }
  | { phase: 'starting' }
  | { phase: 'rendering'; renderedSeconds: number | null; leftSeconds: number | null; framesDone: boolean }
  | { phase: 'ended'; renderedSeconds: number | null };

const WAITING_STATUSES = new Set<JobStatus>(['booting']);
const RENDERING_STATUSES = new Set<JobStatus>(['rendering', 'finalizing']);

/**
 * The node's `waiting` extra: absent (the server does not say), null (it holds a slot) or the jobs
 * ahead of it and when it starts; `reason` is the job's `statusMessage`, said when the start is unknown.
 */
function readWaiting(value: unknown, reason: string | null): 'unsaid' | 'running' | WaitingInLine {
  if (value === undefined) return 'unsaid';
  if (typeof value !== 'object' || value === null) return 'running';
  const { jobsAhead: ahead, startsInSeconds: starts } = value as { jobsAhead?: unknown; startsInSeconds?: unknown };
  const startsInSeconds = typeof starts === 'number' && Number.isFinite(starts) && starts >= 0 ? starts : null;
  return {
    jobsAhead: typeof ahead === 'number' && Number.isInteger(ahead) && ahead >= 0 ? ahead : null,
    startsInSeconds,
    reason: startsInSeconds === null ? reason : null,
  };
}

function seconds(from: string | null, to: number): number | null {
  if (!from) return null;
  const start = Date.parse(from);
  return Number.isNaN(start) || Number.isNaN(to) ? null : Math.max(0, (to - start) / 1000);
}

/**
 * Seconds per frame of a render: over the frames seen done after the first one seen (the first frame
 * also pays for Blender getting ready), else over its time spent rendering up to the latest frame.
 */
function secondsPerFrame(renderingSince: string | null, completedFrames: number, seen: FramesSeen): number | null {
  const last = Date.parse(seen.lastAt);
  const steady = seconds(seen.firstAt, last);
  if (completedFrames > seen.firstCount && steady !== null && steady > 0) return steady / (completedFrames - seen.firstCount);
  const upToLast = seconds(renderingSince, last);
  return upToLast !== null && upToLast > 0 ? upToLast / completedFrames : null;
}

/**
 * Seconds left of a render from its own frame rate: the time it has spent rendering (not waiting)
 * over the frames done, times the frames left. When frames were seen done, the rate is theirs and the
 * time since the latest counts down, never below the frames after the one in progress. Null before the
 * first frame, after the last, or when the times do not make sense.
 */
export function timeLeftFromFrameRate(renderingSince: string | null, now: number, completedFrames: number, totalFrames: number, seen: FramesSeen | null = null): number | null {
  if (completedFrames <= 0 || totalFrames <= 0 || completedFrames >= totalFrames) return null;
  const framesLeft = totalFrames - completedFrames;
  const last = seen ? Date.parse(seen.lastAt) : NaN;
  const since = renderingSince ? Date.parse(renderingSince) : NaN;
  const perFrame = seen && last >= since && last <= now ? secondsPerFrame(renderingSince, completedFrames, seen) : null;
  if (perFrame !== null) return Math.round(Math.max(perFrame * framesLeft - (now - last) / 1000, perFrame * (framesLeft - 1)));
  const spent = seconds(renderingSince, now);
  if (spent === null || spent <= 0) return null;
  return Math.round((spent / completedFrames) * framesLeft);
}

/**
 * Where a job stands at `now`: before its render, waiting for its turn (no clock runs), rendering
 * (time spent rendering and, from its own frame rate, time left) or ended (time spent rendering only).
 */
export function renderClockOf(t: RenderTiming, now: number): RenderClock {
  if (isTerminalStatus(t.status)) {
    const end = t.endedAt ? Date.parse(t.endedAt) : NaN;
    return { phase: 'ended', renderedSeconds: Number.isNaN(end) ? null : seconds(t.renderingSince, end) };
  }
  if (t.waiting) return { phase: 'waiting', jobsAhead: t.waiting.jobsAhead, startsInSeconds: t.waiting.startsInSeconds ?? null, reason: t.waiting.reason ?? null };
  if (WAITING_STATUSES.has(t.status)) return t.running ? { phase: 'starting' } : { phase: 'waiting', jobsAhead: null, startsInSeconds: null, reason: null };
  if (!RENDERING_STATUSES.has(t.status)) return { phase: 'before' };
  const framesDone = t.status === 'finalizing' || (t.totalFrames > 0 && t.completedFrames >= t.totalFrames);
  return {
    phase: 'rendering',
    renderedSeconds: seconds(t.renderingSince, now),
    leftSeconds: framesDone ? null : (farmLeftAt(t.farmLeft, now) ?? timeLeftFromFrameRate(t.renderingSince, now, t.completedFrames, t.totalFrames, t.framesSeen ?? null)),
    framesDone,
  };
}

/** Whether a job waits in line for its turn (no clock runs for it). */
export function isWaitingInLine(t: Pick<RenderTiming, 'status' | 'waiting' | 'running'>): boolean {
  if (isTerminalStatus(t.status)) return false;
  return t.waiting !== null || (WAITING_STATUSES.has(t.status) && !t.running);
}

/**
 * A job's timing as the server reports it: rendering began at its first `rendering` in the timeline's
 * latest run, so a requeued job's clock starts again (else `fallbackSince`, else the last update of a job rendering now), and it waits while `booting`
 * or while the server says it waits (`waiting`, a node extra: the jobs ahead, or null once it runs).
 * A node's time left from the frames done counts down from `readAt`, when the job was read.
 */
export function renderTimingOf(job: Job, fallbackSince: string | null = null, readAt: number = Date.now()): RenderTiming {
  const timeline = currentRunOf(timelineOf(job));
  const progress = progressOf(job);
  const ended = isTerminalStatus(job.status);
  const line = readWaiting(job.waiting, statusMessageOf(job));
  const rendered = timeline.find((e) => e.status === 'rendering')?.at ?? fallbackSince;
  const total = progress?.totalFrames ?? 0;
  const estimate = estimateOf(job);
  return {
    status: job.status,
    renderingSince: rendered ?? (job.status === 'rendering' ? job.updatedAt : null),
    endedAt: ended ? (timeline.find((e) => isTerminalStatus(e.status))?.at ?? job.updatedAt) : null,
    completedFrames: job.status === 'completed' ? total : (progress?.completedFrames ?? 0),
    totalFrames: total,
    waiting: typeof line === 'object' ? line : null,
    running: line === 'running',
    farmLeft: estimate?.basis === 'frames' && !ended ? { seconds: estimate.seconds, at: readAt } : null,
  };
}
