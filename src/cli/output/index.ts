/** What other rooms of cli use of cli/output: the room's public surface. */
export { endedEarlyNote } from './ended-early';
export { adjustmentReasonsOf, formatJobDetails, formatJobList, formatTimestamp } from './format-jobs';
export { blockWords, formatWorkers, workerStateWords } from './format-workers';
export { formatDownload, formatFrameProgress, formatFramesOnDisk, formatPack, formatTrackerRetry, formatTransfer } from './format-progress';
export { artistJobWarnings, formatJobWarnings, type JobWarning } from './job-warnings';
export { type DisplayStream, LiveDisplay } from './live-display';
export { shellWord } from './shell-word';
export { shortId } from './short-id';
export { formatTable, truncate } from './table';
export { formatPairs } from './table';
