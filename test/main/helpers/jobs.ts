import type { JobSummary } from '../../../src/shared/contract/job-views';

/** A job summary with sensible defaults. */
export function job(overrides: Partial<JobSummary> & { id: string }): JobSummary {
  return {
    fileName: `${overrides.id}.blend`,
    status: 'rendering',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    startedAt: null,
    endedAt: null,
    completedFrames: 0,
    totalFrames: 0,
    normalizedSeconds: null,
    failure: null,
    download: { state: 'none', dir: null, filesDone: 0, filesTotal: 0, bytes: 0, error: null },
    canSubmitAgain: true,
    ...overrides,
  };
}
