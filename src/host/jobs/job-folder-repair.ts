import type { ApiClient } from '../../core/api';
import { InvalidStateError } from '../../core/errors';
import type { SubmissionJournal, SubmissionRecord } from '../../core/journal';
import { recordMissingFrames, sceneRefusal, verifyJobFolder, type JobFolderCheck } from '../../core/verify';
import type { FolderCheckView, SubmitFileResult } from '../../shared/contract';
import type { JobDownloads } from './job-downloads';
import type { SubmittedJobs } from './submitted-jobs';

/** What the frame tools of a profile work with. */
export interface JobFolderRepairDeps {
  client: ApiClient;
  journal: SubmissionJournal;
  downloads: JobDownloads;
  submitted: SubmittedJobs;
  /** Starts a recorded submission at once (HostSubmissions.startRecorded). */
  start: (record: SubmissionRecord) => SubmitFileResult;
  isStaged: (path: string) => boolean;
}

/**
 * The frames of a job on this computer: its download folder checked frame by frame, the missing
 * frames rendered into it by a new job of the same scene, and small images of its frames.
 */
export class JobFolderRepair {
  readonly #deps: JobFolderRepairDeps;

  constructor(deps: JobFolderRepairDeps) {
    this.#deps = deps;
  }

  /** Checks the job's folder; says why missing frames could not be rendered from here, if so. */
  async verifyFolder(jobId: string): Promise<FolderCheckView> {
    const check = await this.#check(jobId);
    return {
      jobId,
      folder: check.folder,
      expected: check.expected,
      present: check.present.length,
      missing: check.missing,
      broken: check.broken,
      downloadable: check.downloadable,
      cannotRender: await this.#refusal(this.#deps.submitted.get(jobId)),
    };
  }

  /** Submits the job's scene again for exactly the frames its folder misses, downloading them into it. */
  async renderMissing(jobId: string): Promise<SubmitFileResult> {
    const original = this.#deps.submitted.get(jobId);
    const refusal = await this.#refusal(original);
    if (refusal !== null) throw new InvalidStateError(refusal, { code: 'scene-unavailable' });
    const check = await this.#check(jobId);
    const { record } = await recordMissingFrames({ journal: this.#deps.journal, original, job: check.job, check });
    return this.#deps.start(record);
  }

  async #check(jobId: string): Promise<JobFolderCheck> {
    const job = await this.#deps.client.getJob(jobId);
    return verifyJobFolder(this.#deps.client, job, this.#deps.downloads.jobDir(jobId));
  }

  async #refusal(original: SubmissionRecord | null): Promise<string | null> {
    const refusal = await sceneRefusal(original);
    if (refusal !== null && original && this.#deps.isStaged(original.file.path)) {
      return `The copy of ${original.file.name} sent from the browser has been cleaned up since. Drop the scene again and choose the missing frames.`;
    }
    return refusal;
  }
}
