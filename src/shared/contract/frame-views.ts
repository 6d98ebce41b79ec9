import type { JobSummary } from './job-views';
import type { SubmitFileResult } from './submission-views';

/** A frame file in a job's folder that cannot be used, and why. */
export interface BrokenFrameView {
  frame: number;
  fileName: string;
  reason: string;
}

/** A job's download folder checked against the frames the job renders (`jobs.verifyFolder`). */
export interface FolderCheckView {
  jobId: string;
  /** The folder on this computer, as the artist knows it. */
  folder: string;
  /** How many frames the job renders. */
  expected: number;
  /** How many of them are in the folder and whole. */
  present: number;
  /** Frames with no file, in order. */
  missing: number[];
  /** Frames whose file is empty or does not decode. */
  broken: BrokenFrameView[];
  /** Missing or broken frames the server still offers: downloading the job again gets them without rendering. */
  downloadable: number[];
  /** Why the missing frames cannot be rendered from this computer (the scene file is gone...); null when they can. */
  cannotRender: string | null;
}

/**
 * How frames of a job were sent to render again (`jobs.requeue`): inside the job on a Renderdrop node
 * (`inJob`, with the job as it is now), or, on a farm that cannot, as a new job of those frames.
 * `frames` are the frames as people read them ("2, 5-7").
 */
export type RequeueView =
  | { inJob: true; frames: string; job: JobSummary }
  | { inJob: false; frames: string; sent: SubmitFileResult };
