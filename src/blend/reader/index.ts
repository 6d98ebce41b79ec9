/** What other layers use of blend/reader: the room's public surface. */
export { BlendError } from './blend-error';
export { BlendFileError } from './blend-file-error';
export { type BlendFileHead, parseBlendFileHead, readBlendFileHead } from './blend-file-head';
