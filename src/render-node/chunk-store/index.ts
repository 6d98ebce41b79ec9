/** What other rooms of render-node use of render-node/chunk-store: the room's public surface. */
export { ChunkStore, type ChunkedUploadRecord, type ChunkStoreOptions, DEFAULT_CHUNK_STORE_MAX_BYTES } from './chunk-store';
export { decodeChunkBatch, type DecodedChunk } from './chunk-batch';
