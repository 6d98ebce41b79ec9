/** What other layers use of core/api: the room's public surface. */
export { ApiClient, type CallOptions, type ListJobsQuery } from './api-client';
export { type RetryInfo } from './retry-policy';
export { readJobLog, type JobLogAnswer } from './job-log-reader';
export type { RenderResponse } from './api-client';
export { requeueJob, setWorkerBlock, updateJobSettings } from './studio-client';
export { chunkedUploadsInfo, type ChunkedCompletion, completeChunkedUpload, createChunkedUpload } from './chunked-upload-client';
