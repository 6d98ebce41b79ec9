import { InvalidStateError } from '../../errors';
import type { SubmissionRecord } from '../../journal';

/** The slug of the uploaded file, which every step after the upload needs. */
export function requireSlug(record: SubmissionRecord): string {
  if (!record.slug) throw new InvalidStateError(`Submission ${record.id} has no upload slug recorded; submit the file again.`);
  return record.slug;
}

/** The job of the submission, which every step after its creation needs. */
export function requireJobId(record: SubmissionRecord): string {
  if (!record.jobId) throw new InvalidStateError(`Submission ${record.id} has no job recorded; submit the file again.`);
  return record.jobId;
}
