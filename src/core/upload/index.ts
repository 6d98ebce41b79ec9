/** What other rooms of core use of core/upload: the room's public surface. */
export { preflight, type PreflightResult } from './preflight';
export { uploadFile, type UploadOptions, type UploadResult } from './upload';
export { type ChunkedUploadOptions, type ChunkedUploadResult, uploadChunked } from './chunked-upload';
