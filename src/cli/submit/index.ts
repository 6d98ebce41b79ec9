/** What other rooms of cli use of cli/submit: the room's public surface. */
export { describeStep } from './describe-step';
export { prepareRecord } from './prepare-record';
export { outcomeExitCode, outcomeOfFile, type SubmissionOutcome } from './submission-outcome';
export type { HandedOff } from './submission-runner-options';
export { SubmissionRunner } from './submission-runner';
