/** What other layers use of blend/chunking: the content-defined chunker both the client and the node cut files with. */
export { describeFile, type DescribeOptions, type FileChunks, type LocalChunk } from './describe-file';
export { type ChunkerLimits, GearChunker } from './gear-chunker';
