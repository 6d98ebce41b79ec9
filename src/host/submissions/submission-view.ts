import type { SubmissionRecord } from '../../core/journal';
import { lifecyclePhase, scenesToChooseFrom } from '../../core/lifecycle';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { describeMissing, type ArtistPaths, missingPlaces, suggestProject } from '../../core/packing';
import type { SerializedError } from '../../shared/client-error';
import type { PackingView, SubmissionPhase, SubmissionView } from '../../shared/contract';
import { markUnchecked } from '../files';
import { jobFailedWords } from './job-failed-words';

/** What the host knows of one submission besides its journal record. */
export interface SubmissionState {
  record: SubmissionRecord;
  /**
   * Held before upload until the artist sends it without the files it misses (and with or without the
   * files outside its folder that look private), or cancels.
   */
  heldForMissing: boolean;
  /** Waiting for the artist to review and start the render. */
  awaitingReview: boolean;
  /** Set when the run stopped on an error (one it may recover from with "Retry" unless the record ended). */
  error: SerializedError | null;
  running: boolean;
  /** How files are named to the artist: by their path on this disk, or as stored (a file dropped in the browser). */
  paths: ArtistPaths;
}

/** The phase a person sees for a submission: the lifecycle's phase, or how it ended. */
export function phaseOf(state: SubmissionState): SubmissionPhase {
  const { record } = state;
  if (record.ending === 'failed') return 'failed';
  if (record.ending === 'canceled') return 'canceled';
  if (record.ending === 'declined') return 'discarded';
  if (state.error) return 'failed';
  if (state.heldForMissing) return 'missing-files';
  const phase = lifecyclePhase(record);
  switch (phase) {
    case 'creating':
      return 'validating';
    case 'choosing-scene':
      return 'choose-scene';
    case 'review':
      return state.awaitingReview ? 'review' : 'starting';
    default:
      return phase;
  }
}

/** What travels with the scene and what is missing, as the card shows it before upload. */
export function packingView(record: SubmissionRecord, paths: ArtistPaths): PackingView | null {
  const summary = record.packing;
  if (summary === null) return null;
  const missing = markUnchecked(missingPlaces(summary).map((place) => describeMissing(place, paths)), paths);
  const privateFiles = (summary.privateFiles ?? []).map(({ path, kind, owner, why, allowed, folder }) => ({ path, kind, owner, why, allowed, ...(folder ? { folder } : {}) }));
  if (privateFiles.length === 0) return { files: summary.files, bytes: summary.bytes, missing };
  const project = projectOf(record);
  const suggested = suggestedProject(record);
  return { files: summary.files, bytes: summary.bytes, missing, privateFiles, project, ...(suggested !== null ? { suggestedProject: suggested } : {}) };
}

/** The project's folder of a submission: the one chosen for the scene, else the scene's folder. */
export function projectOf(record: SubmissionRecord): string {
  return record.project ?? dirname(record.file.path);
}

/** The folder the card offers as the scene's project (see suggestProject), or null. */
export function suggestedProject(record: SubmissionRecord): string | null {
  return suggestProject(projectOf(record), record.packing?.privateFiles ?? [], homedir());
}

/** The submission as the UI sees it. */
export function toSubmissionView(state: SubmissionState): SubmissionView {
  const { record } = state;
  const ended = record.ending !== null;
  const stopped: SerializedError | null =
    state.error ?? (record.ending === 'failed' && record.error ? { kind: 'invalid-state', code: record.error.kind, message: record.error.message } : null);
  const error = stopped && { ...stopped, message: jobFailedWords(stopped.message) };
  return {
    id: record.id,
    fileName: record.file.name,
    size: record.file.size,
    phase: phaseOf(state),
    jobId: record.jobId,
    createdAt: record.createdAt,
    error,
    canRetry: !ended && state.error !== null && state.error.kind !== 'preflight' && !state.running,
    scenes: ended ? null : scenesToChooseFrom(record),
    packing: packingView(record, state.paths),
    bytesOnly: state.paths === 'stored',
  };
}
