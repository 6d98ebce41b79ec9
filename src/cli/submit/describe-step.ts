import type { SubmissionRecord } from '../../core/journal';
import { scenesToChooseFrom } from '../../core/lifecycle';

/** Where an unfinished submission stopped, in words, e.g. "uploaded; job not created yet". */
export function describeStep(record: Pick<SubmissionRecord, 'step' | 'jobId' | 'file' | 'validateBody'>): string {
  const job = record.jobId ? `job ${record.jobId}` : 'its job';
  switch (record.step) {
    case 'preflighted':
    case 'traced':
      return 'not packed or uploaded yet';
    case 'packing':
      return 'stopped while packing';
    case 'packed':
    case 'upload-target':
      return 'not uploaded yet';
    case 'uploaded':
      return scenesToChooseFrom(record) !== null ? 'uploaded; the scene of the zip is still to be chosen' : 'uploaded; job not created yet';
    case 'creating-job':
      return 'uploaded; job not created yet';
    case 'job-created':
    case 'validate-requested':
      return `validating ${job}`;
    case 'validated':
      return `${job} validated, not rendered yet`;
    case 'render-requested':
      return `rendering ${job}`;
    case 'completed':
      return `${job} rendered, not downloaded yet`;
    case 'downloaded':
      return `${job} downloaded`;
  }
}
