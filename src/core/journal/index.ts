/** What other layers use of core/journal: the room's public surface. */
export { writeFileAtomic } from './atomic-write';
export { SubmissionJournal } from './submission-journal';
export { isFinished, reached, recordedRenderConfig, type SubmissionEnding, type SubmissionRecord, type SubmissionStep } from './submission-record';
