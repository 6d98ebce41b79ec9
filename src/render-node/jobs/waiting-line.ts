import { type JobRecord, type JobsRepo, RENDER_STATUSES } from '../store';
import { estimateStart, type RenderAhead } from './start-estimate';
import type { RenderExecutor } from './render-executor';

/** Where a render waiting to start stands: the renders ahead of it, and in how many seconds it starts (null: unknown). */
export interface WaitingPlace {
  jobsAhead: number;
  startsInSeconds: number | null;
}

/** What the runner knows of its renders when it places a waiting one in line. */
export interface RenderLine {
  /** Every render not ended (booting, rendering), in queue order. */
  renders: readonly JobRecord[];
  /** Whether a render has started: its Blender holds a slot, or a worker renders its frames. */
  holding: (job: JobRecord) => boolean;
  /** Renders are split over workers (distributed), not whole on slots (the node's own Blender). */
  split: boolean;
  /** The slots, or the workers, that can take this render; null when unknown. */
  capacity: (job: JobRecord) => number | null;
  /** Average seconds per frame of a render so far; null before its first frame. */
  secondsPerFrame: (job: JobRecord) => number | null;
}

/** Average seconds of the frames rendered (frames found already written, 0 s, left out); null without one. */
export function averageFrameSeconds(frames: readonly { seconds: number }[]): number | null {
  const timed = frames.filter((f) => f.seconds > 0);
  return timed.length === 0 ? null : timed.reduce((sum, f) => sum + f.seconds, 0) / timed.length;
}

/**
 * The runner's line of renders: where each render that has not started stands ({@link placeInLine}).
 * The renders and their frame times are read once for the calls of one moment (a list of jobs).
 */
export class WaitingLine {
  private line: RenderLine | null = null;

  constructor(
    private readonly deps: {
      jobs: JobsRepo;
      executor: RenderExecutor;
      /** Whether the node's own Blender renders this job now. */
      running: (jobId: string) => boolean;
      /** How many renders of this job's the node's own Blender may run at once (0: none, it lacks a tag the job requires). */
      slots: (job: JobRecord) => number;
    },
  ) {}

  /** Where a render that has not started stands; null for one that has, or a job that is not a render. */
  place(job: Pick<JobRecord, 'id' | 'status'>): WaitingPlace | null {
    if (!(RENDER_STATUSES as readonly string[]).includes(job.status)) return null;
    if (!this.line) {
      this.line = this.read();
      queueMicrotask(() => (this.line = null));
    }
    return placeInLine(job.id, this.line);
  }

  private read(): RenderLine {
    const { jobs, executor, running, slots } = this.deps;
    const split = executor.mode === 'distributed';
    const seconds = new Map<string, number | null>();
    return {
      renders: jobs.inStatus(RENDER_STATUSES),
      split,
      holding: (r) => (split ? r.status !== 'booting' || executor.working?.(r.id) === true : running(r.id)),
      capacity: (r) => (split ? (executor.capacityFor?.(r) ?? null) : slots(r)),
      secondsPerFrame: (r) => {
        if (r.completedFrames === 0) return null;
        if (!seconds.has(r.id)) seconds.set(r.id, averageFrameSeconds(jobs.frames(r.id)));
        return seconds.get(r.id)!;
      },
    };
  }
}

/**
 * Where a render that has not started stands (null once it has, or when it is not a render): the
 * renders ahead of it are those of a higher priority, then those of its priority queued before it; on
 * the node's own Blender also every render holding a slot (one of a lower priority only until its next
 * frame, when it gives way). When it starts comes from their remaining time ({@link estimateStart}).
 */
export function placeInLine(jobId: string, line: RenderLine): WaitingPlace | null {
  const index = line.renders.findIndex((r) => r.id === jobId);
  const job = line.renders[index];
  if (!job || line.holding(job)) return null;
  const before = (r: JobRecord, i: number) => r.priority > job.priority || (r.priority === job.priority && i < index);
  const holding: RenderAhead[] = [];
  const queued: { render: JobRecord; index: number }[] = [];
  line.renders.forEach((r, i) => {
    if (r.id === jobId) return;
    if (!line.split && line.holding(r)) holding.push(ahead(r, line, r.priority < job.priority));
    else if (before(r, i)) queued.push({ render: r, index: i });
  });
  queued.sort((a, b) => b.render.priority - a.render.priority || a.index - b.index);
  const all = [...holding, ...queued.map((q) => ahead(q.render, line, false))];
  return { jobsAhead: all.length, startsInSeconds: estimateStart(all, { slots: line.capacity(job), split: line.split }) };
}

function ahead(render: JobRecord, line: RenderLine, yieldsAtNextFrame: boolean): RenderAhead {
  const framesLeft = Math.max(0, render.totalFrames - render.completedFrames);
  return { framesLeft, secondsPerFrame: framesLeft > 0 ? line.secondsPerFrame(render) : null, yieldsAtNextFrame };
}
