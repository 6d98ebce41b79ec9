import type { SubmissionRecord } from '../core/journal/submission-record';
import type { SerializedError } from '../shared/client-error';
import type { SubmissionPhase, SubmissionView } from '../shared/contract/submission-views';

/** What the host knows of one submission besides its journal record. */
export interface SubmissionState {
  record: SubmissionRecord;
  /** Waiting for the artist to review and start the render. */
  awaitingReview: boolean;
  /** Set when the run stopped on an error it may recover from with "Retry". */
  error: SerializedError | null;
  running: boolean;
}

/** The phase a person sees for a submission. */
export function phaseOf(state: SubmissionState): SubmissionPhase {
  const { record } = state;
  if (record.ending === 'failed') return 'failed';
  if (record.ending === 'canceled') return 'canceled';
  if (record.ending === 'declined') return 'discarded';
  if (state.error) return 'failed';
  switch (record.step) {
    case 'preflighted':
    case 'upload-target':
      return 'uploading';
    case 'uploaded':
    case 'creating-job':
    case 'job-created':
    case 'validate-requested':
      return 'validating';
    case 'validated':
      return state.awaitingReview ? 'review' : 'starting';
    case 'render-requested':
      return 'rendering';
    case 'completed':
      return record.download.wanted ? 'downloading' : 'done';
    case 'downloaded':
      return 'done';
  }
}

/** The submission as the UI sees it. */
export function toSubmissionView(state: SubmissionState): SubmissionView {
  const { record } = state;
  const ended = record.ending !== null;
  const error: SerializedError | null =
    state.error ?? (record.ending === 'failed' && record.error ? { kind: 'invalid-state', code: record.error.kind, message: record.error.message } : null);
  return {
    id: record.id,
    fileName: record.file.name,
    size: record.file.size,
    phase: phaseOf(state),
    jobId: record.jobId,
    createdAt: record.createdAt,
    error,
    canRetry: !ended && state.error !== null && state.error.kind !== 'preflight' && !state.running,
  };
}
