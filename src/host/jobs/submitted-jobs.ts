import type { SubmissionRecord } from '../../core/journal';

/** The journal record of each job this app submitted, so the queue knows its file and "Submit again" its source. */
export class SubmittedJobs {
  readonly #byJob = new Map<string, SubmissionRecord>();

  /** Records that `record` made its job (no-op until it has one). */
  remember(record: SubmissionRecord): void {
    if (record.jobId) this.#byJob.set(record.jobId, record);
  }

  /** Records that `jobId` was made by `record` (known before the record says so). */
  rememberAs(jobId: string, record: SubmissionRecord): void {
    this.#byJob.set(jobId, record);
  }

  get(jobId: string): SubmissionRecord | null {
    return this.#byJob.get(jobId) ?? null;
  }
}
