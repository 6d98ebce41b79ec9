import type { JobStatus, SceneAnalysis } from '../api';
import type { FarmLeft, FramesSeen, RenderEstimate, WaitingInLine } from '../render';

/** Where a job's outputs stand on this computer. */
export interface DownloadState {
  state: 'none' | 'queued' | 'downloading' | 'done' | 'failed';
  /** The job's output folder, once known. */
  dir: string | null;
  filesDone: number;
  filesTotal: number;
  bytes: number;
  error: string | null;
}

/** The steps a job can fail at, as the app names them. */
export type FailedStep = 'upload' | 'validation' | 'render';

/** One job in the queue: small, so ten thousand of them cross the contract cheaply. */
export interface JobSummary {
  id: string;
  /** The scene's file name (`shot.blend`), which names the queue row. */
  fileName: string;
  status: JobStatus;
  createdAt: string;
  updatedAt: string;
  /** When the job was sent to render (first `booting`, which includes its wait in line), and when it ended. */
  startedAt: string | null;
  endedAt: string | null;
  /** When it began rendering (first `rendering`): its clock starts here, not while it waits. */
  renderingSince: string | null;
  /** Set while it waits for its turn, with the jobs ahead of it, when it starts, or why it cannot say, when the farm says. */
  waiting: WaitingInLine | null;
  /** Whether the farm says a render holds a slot for it (it is starting, not waiting). */
  running: boolean;
  /** When this app saw frames done (null until it saw one): time left takes their rate and counts down from the latest. */
  framesSeen: FramesSeen | null;
  /** A Renderdrop node's time left from the frames done (read along the shot) and when it was read; it counts down from then. */
  farmLeft?: FarmLeft | null;
  completedFrames: number;
  totalFrames: number;
  /** Render time the server counted, in seconds. */
  normalizedSeconds: number | null;
  /** Why it failed, in plain words. */
  failure: string | null;
  /** The step it failed at, when it failed. */
  failedStep: FailedStep | null;
  download: DownloadState;
  /** Whether "Submit again" can find the source file. */
  canSubmitAgain: boolean;
  /** Whether the server has a preview image of the job's latest frame (fetch it with `jobs.preview`). */
  hasPreview: boolean;
  /** Changes whenever the preview may have changed, so a shown thumbnail is fetched again; null without one. */
  previewKey: string | null;
  /** What the job's warnings say, a few words each ("files missing"); empty when nothing (a passing condition's warning goes once it has passed). */
  warnings: string[];
  /** A completed job whose render printed Blender errors: the first telling line (absent or null otherwise). */
  errorLine?: string | null;
  /** Before the render starts: its time from earlier renders of the same scene on this profile, when there are any. */
  estimate: RenderEstimate | null;
  /** Its priority on a Renderdrop node, 0-100; null or absent on a farm without priorities. */
  priority?: number | null;
  /** The worker tags it needs on a Renderdrop node (empty or absent: any worker). */
  requires?: string[];
}

/** One status change. */
export interface TimelineEntry {
  status: JobStatus;
  at: string;
  /** The farm's words on the change, when it has some ("requeued frames 5, 9-12"). */
  detail?: string;
}

/** One field of the render configuration, as requested and as the server used it. */
export interface ConfigDifference {
  field: string;
  requested: unknown;
  final: unknown;
  changed: boolean;
  /** Why the server changed it, when it said. */
  reason: string | null;
}

/** One output file and whether it is on this computer. */
export interface OutputFileView {
  relativePath: string;
  state: 'downloaded' | 'partial' | 'missing';
  bytes: number | null;
}

/** Everything the job detail panel shows. */
export interface JobDetail {
  summary: JobSummary;
  /** The analysis in the local node's shape, when the server sent one. */
  analysis: SceneAnalysis | null;
  requestedConfig: Record<string, unknown> | null;
  finalConfig: Record<string, unknown> | null;
  differences: ConfigDifference[];
  timeline: TimelineEntry[];
  outputs: OutputFileView[];
  /** Whether the server has a preview image (fetch it with `jobs.preview`). */
  hasPreview: boolean;
  /** A completed job's render time as a Renderdrop node estimated it before Start, and the render time it took; absent otherwise. */
  estimateAgainstTaken?: { estimatedSeconds: number; tookSeconds: number };
}

/** What "Remove from list" did: jobs now hidden, and how many of them were canceled first. */
export interface JobRemoval {
  removed: number;
  canceled: number;
}

/** Status filter chips of the queue. */
export const JOB_FILTERS = ['all', 'active', 'review', 'completed', 'failed', 'canceled'] as const;
export type JobFilter = (typeof JOB_FILTERS)[number];

/** Number of jobs under each filter. */
export type JobCounts = Record<JobFilter, number>;
