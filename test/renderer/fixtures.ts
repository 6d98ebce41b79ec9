import type { JobStatus } from '../../src/shared/api/job';
import type { JobSummary } from '../../src/shared/contract/job-views';

/** A job summary for renderer tests. */
export function summary(id: string, status: JobStatus, fileName = `${id}.blend`, createdAt = '2026-01-01T00:00:00Z'): JobSummary {
  return {
    id,
    fileName,
    status,
    createdAt,
    updatedAt: createdAt,
    startedAt: null,
    endedAt: null,
    completedFrames: 0,
    totalFrames: 0,
    normalizedSeconds: null,
    failure: null,
    download: { state: 'none', dir: null, filesDone: 0, filesTotal: 0, bytes: 0, error: null },
    canSubmitAgain: false,
  };
}
