/** What other rooms of core use of core/chunking: the room's public surface. */
export { frameChunk, looksCompressible } from './chunk-batch';
export { describeFile, type DescribeOptions, type FileChunks, type LocalChunk, type ChunkerLimits, GearChunker } from '../../blend/chunking';
