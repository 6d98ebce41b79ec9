/** What other layers use of core/journal: the room's public surface. */
export { SubmissionJournal } from './submission-journal';
export { isFinished, reached, recordedRenderConfig, type SubmissionEnding, type SubmissionRecord, type SubmissionStep } from './submission-record';
export type { RecordLock } from './record-lock';
export type { SubmissionPatch } from './submission-journal';
