import type { JobStatus } from '../../src/shared/api/job';
import type { JobSummary } from '../../src/shared/contract/job-views';
import { jobSummary } from '../fixtures/job-summary';

/** A job summary for renderer tests. */
export function summary(id: string, status: JobStatus, fileName = `${id}.blend`, createdAt = '2026-01-01T00:00:00Z'): JobSummary {
  return jobSummary({ id, status, fileName, createdAt });
}
