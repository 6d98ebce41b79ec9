import type { Logger } from 'pino';
import type { EstimatesRepo, JobRecord, JobsRepo } from '../store';
import type { DiskReserve, Storage } from '../disk';
import type { NodeCapabilities, RenderLimits } from '../plan';
import type { RenderExecutor } from './render-executor';
import type { BlenderRuntime } from './blender-runtime';
import type { JobLogs } from '../logs';
import type { FfmpegLookup } from '../video';

/** What the runner needs from the node. */
export interface JobRunnerOptions {
  jobs: JobsRepo;
  storage: Storage;
  log: Logger;
  /** Null when no Blender was found: validations and renders fail with a clear reason. */
  blender: BlenderRuntime | null;
  /** Tags of the node's own Blender: a render that requires others waits (renders on workers follow the workers' tags). */
  tags?: readonly string[];
  /** Blender threads per render of the node's own Blender, or null for all cores. */
  threads?: number | null;
  concurrency: { renders: number; validations: number };
  /** Kept in the data folder so that failures can still be recorded when the disk is full. */
  reserve: DiskReserve;
  limits?: RenderLimits;
  /** Disk space kept free beyond what a step is expected to write (default 16 MiB). */
  headroomBytes?: number;
  /** How long a render keeps its slot before giving way, at a frame boundary, to another key's (default 60 s). */
  renderTurnMs?: number;
  analysisTimeoutMs?: number;
  /** Environment Blender starts from (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Called when a job reaches `completed`. */
  onCompleted?: (job: JobRecord) => void;
  /** Resolves an upload slug to the stored file. */
  uploadPath: (slug: string) => string;
  now?: () => number;
  /** Where renders run; default: the node's own Blender (the embedded executor). */
  executor?: RenderExecutor;
  /** Where what Blender prints for each job is kept. */
  logs?: JobLogs;
  /** What the node's Blender can do, for saying at validation what the farm will render differently. */
  capabilities?: NodeCapabilities;
  /** FFmpeg, which makes a job's video from its frames when its plan has one (looked for when first needed). */
  ffmpeg?: FfmpegLookup;
  /** Where the node keeps its render estimates; without it there are no sample renders or estimates. */
  estimates?: EstimatesRepo;
}

/** Disk space kept free beyond what a step is expected to write, unless the node says otherwise. */
export const DEFAULT_HEADROOM_BYTES = 16 * 1024 * 1024;
/** How long a render keeps its slot before giving way to another key's, unless the node says otherwise. */
export const DEFAULT_RENDER_TURN_MS = 60_000;
