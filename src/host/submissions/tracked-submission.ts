import type { ApiClient } from '../../core/api';
import type { SubmissionRecord } from '../../core/journal';
import type { ClaimedSubmission, RenderProposal } from '../../core/lifecycle';
import type { JobTracker } from '../../core/tracking';
import type { JobDownloads, ProfileJobs, SubmittedJobs } from '../jobs';
import type { SessionEnvironment } from '../environment';
import type { SubmissionState } from './submission-view';

/** What the submissions of one profile work with. */
export interface HostSubmissionsDeps extends SessionEnvironment {
  profileId: string;
  client: ApiClient;
  tracker: JobTracker;
  jobs: ProfileJobs;
  downloads: JobDownloads;
  submitted: SubmittedJobs;
}

/** One submission of this session as the host drives it: its state, its claim and what review shows. */
export interface TrackedSubmission extends SubmissionState {
  /** Held from the first step until the run stops, and across review (so no other Renderdrop takes it meanwhile). */
  claimed: ClaimedSubmission | null;
  abort: AbortController;
  /** What review shows, while the submission waits for the artist. */
  proposal: RenderProposal | null;
  /** Render straight away with the settings given when it was submitted. */
  autoStart: boolean;
  /** The artist chose to send the scene without the files it misses. */
  filesAccepted: boolean;
  /** Sent by "Submit again": review starts from the earlier job's settings. */
  again: boolean;
}

/** A submission as first tracked: not running, not held, with its own abort controller. */
export function trackedSubmission(record: SubmissionRecord, autoStart: boolean, paths: SubmissionState['paths']): TrackedSubmission {
  return {
    record,
    heldForMissing: false,
    awaitingReview: false,
    error: null,
    running: false,
    paths,
    claimed: null,
    abort: new AbortController(),
    proposal: null,
    autoStart,
    filesAccepted: false,
    again: false,
  };
}
