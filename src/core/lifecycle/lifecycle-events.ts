import type { PackProgress } from '../../blend/pack';
import type { Job, RenderConfig } from '../../shared/api';
import type { DownloadProgress, FramesOnDisk } from '../download';
import type { SubmissionRecord } from '../journal';
import type { FrameProgress } from '../tracking';
import type { TransferProgress } from '../transfer';

/** Everything a claimed submission reports while it advances. */
export interface SubmissionEvents extends Record<string, unknown> {
  /** The journal record moved to a new step (or ended). */
  step: { record: SubmissionRecord };
  /** Writing the bundle. */
  pack: PackProgress;
  upload: TransferProgress;
  job: { job: Job };
  progress: { jobId: string } & FrameProgress;
  download: DownloadProgress;
  /** Frames of the job brought into its output folder while it renders. */
  framesOnDisk: FramesOnDisk;
  /** Something a person may want to know (a recovered job, a fresh upload URL). */
  notice: { message: string };
}

/** What a submission stopped at review offers: the validated job, what it found, the settings to render with. */
export interface RenderProposal {
  job: Job;
  /** `job.analysis` as the server sent it (the local node's shape is `SceneAnalysis`). */
  analysis: unknown;
  renderConfig: RenderConfig;
  /** Why `renderConfig` cannot work with this scene (checked before anything is sent), or null. */
  problem: string | null;
}
