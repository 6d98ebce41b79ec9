import { constants, zstdDecompressSync } from 'node:zlib';
import { CHUNK_ENCODINGS, CHUNK_FRAME_HEAD_BYTES, CHUNKING } from '../../shared/api';

/** One chunk of a batch, decoded (not yet checked against its hash). */
export interface DecodedChunk {
  hash: string;
  bytes: Buffer;
}

/**
 * The chunks of a batch body (see CHUNK_FRAME_HEAD_BYTES for the framing), each decoded to at most
 * CHUNKING.maxBytes: a frame that is cut short, of an unknown encoding, or that decodes to more is
 * refused with an Error saying which.
 */
export function decodeChunkBatch(body: Buffer): DecodedChunk[] {
  const chunks: DecodedChunk[] = [];
  let at = 0;
  while (at < body.length) {
    if (at + CHUNK_FRAME_HEAD_BYTES > body.length) throw new Error(`The batch is cut short inside the head of chunk ${chunks.length + 1}.`);
    const hash = body.toString('hex', at, at + 32);
    const encoding = body.readUInt8(at + 32);
    const length = body.readUInt32BE(at + 33);
    const start = at + CHUNK_FRAME_HEAD_BYTES;
    if (length === 0 || start + length > body.length) throw new Error(`Chunk ${chunks.length + 1} of the batch is cut short or empty.`);
    const payload = body.subarray(start, start + length);
    let bytes: Buffer;
    if (encoding === CHUNK_ENCODINGS.raw) {
      if (length > CHUNKING.maxBytes) throw new Error(`Chunk ${chunks.length + 1} of the batch is larger than a chunk may be.`);
      bytes = payload;
    } else if (encoding === CHUNK_ENCODINGS.zstd) {
      try {
        bytes = zstdDecompressSync(payload, { maxOutputLength: CHUNKING.maxBytes, params: { [constants.ZSTD_d_windowLogMax]: 17 } });
      } catch {
        throw new Error(`Chunk ${chunks.length + 1} of the batch could not be decompressed (or is larger than a chunk may be).`);
      }
    } else {
      throw new Error(`Chunk ${chunks.length + 1} of the batch has an unknown encoding (${encoding}).`);
    }
    chunks.push({ hash, bytes });
    at = start + length;
  }
  return chunks;
}
