import type { FailedReason } from '../../shared/api';
import type { JobRecord } from '../store';
import type { Renderer, RenderPlan } from '../plan';

/** One render for an executor: the job, its plan, and where to report what happens. */
export interface RenderTask {
  job: JobRecord;
  plan: RenderPlan;
  /** The .blend to open, in the job's scene folder. */
  scenePath: string;
  /** The job's scene folder: paths of the scene leading outside it are cut off before the render. */
  sceneRoot: string;
  /** Aborted on cancel and when the node stops. */
  signal: AbortSignal;
  /** Blender has loaded the scene and started on the frames. */
  onStarted: () => void;
  /**
   * A frame file is in place in the plan's output folder (written by the node's Blender, or uploaded
   * by a worker, named in `worker`). Resolves whether it counted: a file that is not whole is removed and stops the render.
   */
  onFrame: (frame: { frame: number; path: string; seconds: number; worker?: string | null }) => Promise<boolean>;
  /** A local Blender process was started for the job (so a crashed node can stop it). */
  onPid: (pid: number) => void;
  /** A line Blender printed for the job (its log). */
  onLog?: (line: string) => void;
}

/**
 * How an executor's render ended: the process (or the workers) finished, could not start, or were
 * stopped. The render step checks the frames itself after `finished`.
 */
export type ExecutorOutcome =
  | { kind: 'finished'; exitCode: number | null; errorTail: string; error?: string }
  | { kind: 'failed'; reason: FailedReason }
  | { kind: 'stopped' };

/**
 * Produces the frames of a render: in this process with the node's Blender (embedded, the default),
 * or on render workers through Redis (distributed). Validation and finalizing stay with the runner.
 */
export interface RenderExecutor {
  readonly mode: 'embedded' | 'distributed';
  render(task: RenderTask): Promise<ExecutorOutcome>;
  /** Stop a job's render everywhere it runs (its status is already `canceled` or `failed`). */
  cancel(jobId: string): Promise<void>;
  /** Get ready to render `frames` of a job that ended again (a requeue), before it goes back in the queue. */
  requeue?(jobId: string, frames: readonly number[]): Promise<void>;
  /** Why a job's render waits, in words for people, when something holds it back (null: nothing to say). */
  statusMessage?(jobId: string): string | null;
  /**
   * The Blenders that render here: the node's own, or the connected render workers' (empty: none is
   * connected); null when they cannot be listed now.
   */
  renderers(): Promise<Renderer[] | null>;
  /** A job's priority (or required tags) changed: the parts of its render still waiting for a worker follow it at once. */
  reprioritize?(jobId: string, priority: number): Promise<void>;
  /** Whether a worker holds one of the chunks of this render now; false while every chunk waits. */
  working?(jobId: string): boolean;
  /** How many connected workers can take this render, as last seen; null when not known. */
  capacityFor?(job: JobRecord): number | null;
  start(): Promise<void>;
  stop(): Promise<void>;
}
