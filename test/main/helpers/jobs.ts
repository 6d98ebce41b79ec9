import type { JobSummary } from '../../../src/shared/contract/job-views';
import { jobSummary } from '../../fixtures/job-summary';

/** A job summary with sensible defaults. */
export function job(overrides: Partial<JobSummary> & { id: string }): JobSummary {
  return jobSummary({ createdAt: '2026-01-01T00:00:00.000Z', canSubmitAgain: true, ...overrides });
}
