/** What other layers use of blend/reader: the room's public surface. */
export { BlendError } from './blend-error';
export { BlendFileError } from './blend-file-error';
export { type BlendFileHead, parseBlendFileHead, readBlendFileHead } from './blend-file-head';
export { type BlendContentVerdict, checkBlendContent } from './inflate/blend-content-check';
export { BlendTooLargeError, MAX_BLEND_CONTENT_BYTES } from './inflate/content-guard';
