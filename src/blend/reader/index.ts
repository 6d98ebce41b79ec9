/** What other layers use of blend/reader: the room's public surface. */
export { BlendFileError } from './blend-file-error';
