import { open } from 'node:fs/promises';
import { constants, zstdCompressSync } from 'node:zlib';
import { CHUNK_ENCODINGS, CHUNK_FRAME_HEAD_BYTES } from '../../shared/api';

/** zstd must save at least this share of a chunk for the chunk to travel compressed. */
const MIN_SAVING = 0.05;

/** Bytes of a chunk whose spread of byte values is looked at before compressing it. */
const PROBE_BYTES = 4096;
/** Bits of information per byte above which bytes do not shrink enough to be worth compressing. */
const INCOMPRESSIBLE_BITS = 7.6;

const zstd = (bytes: Buffer) => zstdCompressSync(bytes, { params: { [constants.ZSTD_c_compressionLevel]: 1, [constants.ZSTD_c_windowLog]: 17 } });

/** Shannon entropy of the first 4 KiB, in bits per byte: near 8 for packed pixels, compressed textures, random data. */
export function entropyOfStart(bytes: Buffer): number {
  const sample = bytes.subarray(0, PROBE_BYTES);
  const counts = new Uint32Array(256);
  for (let i = 0; i < sample.length; i++) counts[sample[i]!]!++;
  let bits = 0;
  for (let v = 0; v < 256; v++) {
    const c = counts[v]!;
    if (c > 0) bits -= (c / sample.length) * Math.log2(c / sample.length);
  }
  return bits;
}

/**
 * One chunk framed for a batch: its SHA-256, its encoding and its bytes, zstd-compressed (level 1,
 * which keeps pace with a fast link) when that saves at least 5 %. Packed images, compressed
 * textures and other bytes whose first 4 KiB look random travel as they are, without a try (a
 * compression call costs as much as the hashing of the chunk).
 */
export function frameChunk(hash: string, bytes: Buffer): Buffer {
  const packed = entropyOfStart(bytes) < INCOMPRESSIBLE_BITS ? zstd(bytes) : null;
  const compressed = packed !== null && packed.length <= bytes.length * (1 - MIN_SAVING);
  const body = compressed ? packed : bytes;
  const head = Buffer.allocUnsafe(CHUNK_FRAME_HEAD_BYTES);
  head.write(hash, 0, 32, 'hex');
  head.writeUInt8(compressed ? CHUNK_ENCODINGS.zstd : CHUNK_ENCODINGS.raw, 32);
  head.writeUInt32BE(body.length, 33);
  return Buffer.concat([head, body]);
}

/** Windows sampled to judge how well a whole file compresses. */
const FILE_SAMPLES = 32;

/**
 * Whether a file would travel much smaller compressed: the mean entropy of 4 KiB windows spread from
 * its first byte to its last is under the mark (a project of packed images and compressed textures is
 * not; a plain .blend is).
 */
export async function looksCompressible(path: string, size: number): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    let bits = 0;
    let samples = 0;
    const window = Buffer.allocUnsafe(PROBE_BYTES);
    for (let i = 0; i < FILE_SAMPLES; i++) {
      const at = Math.floor((i * Math.max(0, size - PROBE_BYTES)) / (FILE_SAMPLES - 1));
      const { bytesRead } = await file.read(window, 0, PROBE_BYTES, at);
      if (bytesRead === 0) continue;
      bits += entropyOfStart(window.subarray(0, bytesRead));
      samples++;
    }
    return samples > 0 && bits / samples < INCOMPRESSIBLE_BITS - 0.6;
  } finally {
    await file.close();
  }
}
