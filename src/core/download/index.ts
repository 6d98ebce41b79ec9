/** What other layers use of core/download: the room's public surface. */
export { downloadJobOutputs } from './download-job';
export { FrameFollower, type FrameFollowerOptions, type FramesOnDisk, type FramesSource } from './frames-on-disk';
export { LiveFrameFollow } from './live-frame-follow';
export type { DownloadProgress } from './download-tally';
export { jobFolderName } from './job-folder';
export { itemPath, planOutputs } from './output-plan';
export { resolveInside, sanitizeRelativePath, sanitizeSegment } from './safe-path';
export type { DownloadJobOptions, DownloadJobResult } from './download-job';
