/** What other layers use of blend/reader: the room's public surface. */
export { BlendError } from './blend-error';
export { BlendFileError } from './blend-file-error';
export { type BlendFileHead, parseBlendFileHead, readBlendFileHead } from './blend-file-head';
export { type BlendContentVerdict, checkBlendContent } from './inflate/blend-content-check';
export { BlendTooLargeError, MAX_BLEND_CONTENT_BYTES } from './inflate/content-guard';
export { asBlendFileError } from './blend-file-error';
export { BlendFile } from './blend-file';
export { lengthField } from './block-header';
export type { BlendCompression, FileIdentity } from './byte-source';
export { openByteSource } from './open-byte-source';
export { openedOnRead, pipedThrough } from './piped-through';
export { StructView } from './struct-view';
