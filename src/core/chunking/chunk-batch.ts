import { constants, zstdCompressSync } from 'node:zlib';
import { CHUNK_ENCODINGS, CHUNK_FRAME_HEAD_BYTES } from '../../shared/api';

/** zstd must save at least this share of a chunk for the chunk to travel compressed. */
const MIN_SAVING = 0.05;

/**
 * One chunk framed for a batch: its SHA-256, its encoding and its bytes, zstd-compressed (level 3)
 * when that saves at least 5 % (packed images and compressed textures travel as they are).
 */
export function frameChunk(hash: string, bytes: Buffer): Buffer {
  const packed = zstdCompressSync(bytes, { params: { [constants.ZSTD_c_compressionLevel]: 3 } });
  const compressed = packed.length <= bytes.length * (1 - MIN_SAVING);
  const body = compressed ? packed : bytes;
  const head = Buffer.allocUnsafe(CHUNK_FRAME_HEAD_BYTES);
  head.write(hash, 0, 32, 'hex');
  head.writeUInt8(compressed ? CHUNK_ENCODINGS.zstd : CHUNK_ENCODINGS.raw, 32);
  head.writeUInt32BE(body.length, 33);
  return Buffer.concat([head, body]);
}
