import { createHash, type Hash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { CHUNKING } from '../../shared/api';
import { GearChunker, type ChunkerLimits } from './gear-chunker';

/** One chunk of a local file: its SHA-256 (hex), size and where it lies in the file. */
export interface LocalChunk {
  hash: string;
  size: number;
  offset: number;
}

/** A file cut into content-defined chunks, with the whole's SHA-256 and size. */
export interface FileChunks {
  size: number;
  sha256: string;
  chunks: LocalChunk[];
}

/** How to read the file. */
export interface DescribeOptions {
  limits?: ChunkerLimits;
  /** Read size (default 1 MiB). */
  readBytes?: number;
  signal?: AbortSignal;
  /** Called with the bytes read so far. */
  onProgress?: (bytes: number) => void;
  /** The file's SHA-256 when it is already known (a bundle's, from packing): it is then not computed again. */
  sha256?: string;
}

/**
 * Reads a file once, cutting it into content-defined chunks (GearChunker) and hashing each chunk
 * and the whole with SHA-256 as the bytes go by: the next piece is read while the last is cut and
 * hashed, and memory stays at two pieces whatever the file size.
 */
export async function describeFile(path: string, options: DescribeOptions = {}): Promise<FileChunks> {
  const readBytes = options.readBytes ?? 1024 * 1024;
  const chunker = new GearChunker(options.limits ?? CHUNKING);
  const whole = options.sha256 === undefined ? createHash('sha256') : null;
  const chunks: LocalChunk[] = [];
  let part: Hash = createHash('sha256');
  let chunkStart = 0;
  let position = 0;
  const file = await open(path, 'r');
  try {
    const buffers = [Buffer.allocUnsafe(readBytes), Buffer.allocUnsafe(readBytes)];
    let slot = 0;
    let reading = file.read(buffers[slot]!, 0, readBytes, 0);
    for (;;) {
      options.signal?.throwIfAborted();
      const { bytesRead, buffer } = await reading;
      if (bytesRead === 0) break;
      slot = 1 - slot;
      reading = file.read(buffers[slot]!, 0, readBytes, position + bytesRead);
      const data = buffer.subarray(0, bytesRead);
      whole?.update(data);
      let from = 0;
      for (const cut of chunker.cuts(data)) {
        part.update(data.subarray(from, cut));
        const end = position + cut;
        chunks.push({ hash: part.digest('hex'), size: end - chunkStart, offset: chunkStart });
        part = createHash('sha256');
        chunkStart = end;
        from = cut;
      }
      part.update(data.subarray(from));
      position += bytesRead;
      options.onProgress?.(position);
    }
  } finally {
    await file.close();
  }
  if (chunker.finish() > 0) chunks.push({ hash: part.digest('hex'), size: position - chunkStart, offset: chunkStart });
  return { size: position, sha256: whole?.digest('hex') ?? options.sha256!, chunks };
}
