import type { SceneAnalysis, AnalysisWarning } from '../api/analysis';
import type { RenderConfig } from '../api/render-config';
import type { SerializedError } from '../client-error';

/** Where a submission stands, in the words of the UI. */
export const SUBMISSION_PHASES = ['uploading', 'choose-scene', 'validating', 'review', 'starting', 'rendering', 'downloading', 'done', 'failed', 'canceled', 'discarded'] as const;
export type SubmissionPhase = (typeof SUBMISSION_PHASES)[number];

/** One file on its way to the farm. */
export interface SubmissionView {
  id: string;
  fileName: string;
  size: number;
  phase: SubmissionPhase;
  jobId: string | null;
  createdAt: string;
  /** Why it stopped, when it did. */
  error: SerializedError | null;
  /** Whether "Retry" can resume it from its last step. */
  canRetry: boolean;
  /**
   * The scenes of a zip that holds several, while none is chosen (`submissions.chooseScene`): asked
   * during the upload, and the submission waits after it (phase `choose-scene`) until one is. Null
   * when there is nothing to choose.
   */
  scenes: string[] | null;
}

/** Progress of one upload or download. */
export interface TransferView {
  /** `upload:<submission id>` or `download:<job id>`. */
  id: string;
  kind: 'upload' | 'download';
  submissionId: string | null;
  jobId: string | null;
  bytes: number;
  total: number | null;
  /** Bytes per second, smoothed. */
  rate: number;
  etaSeconds: number | null;
  done: boolean;
}

/** What validation found, and the settings the render will start from. */
export interface ReviewSheet {
  submissionId: string;
  jobId: string;
  fileName: string;
  analysis: SceneAnalysis | null;
  /** Warnings in plain words (missing files by path, newer Blender, denoiser switched off, ...). */
  warnings: AnalysisWarning[];
  /** The settings to start from: the last ones used for this scene, else the detected ones. */
  defaults: RenderConfig;
  /** Whether `defaults` come from the last render of this scene. */
  fromLastTime: boolean;
}

/** What happened to one dropped or picked file. */
export type SubmitFileResult =
  | { ok: true; name: string; submissionId: string }
  | { ok: false; name: string; error: SerializedError };

/** In-app notification. */
export interface NotificationView {
  id: string;
  level: 'info' | 'success' | 'error';
  title: string;
  message: string;
  jobId: string | null;
  at: string;
}
