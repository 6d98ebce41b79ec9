/** What other layers use of host/jobs: the room's public surface. */
export { systemOpenPath } from './open-path';
export { JobDetails } from './job-details';
export { JobDownloads } from './job-downloads';
export { JobFolderRepair } from './job-folder-repair';
export { JobFrameStrip } from './job-frame-strip';
export { JobLogReader } from './job-log';
export { withFrameCounts } from './job-summary';
export { JobSync } from './job-sync';
export { ProfileJobs } from './profile-jobs';
export { readAnalysis } from './read-analysis';
export { SubmittedJobs } from './submitted-jobs';
export { FarmStudio } from './studio/farm-studio';
