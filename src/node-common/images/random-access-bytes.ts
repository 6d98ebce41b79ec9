import type { FileHandle } from 'node:fs/promises';

/** Random-access reads of a file of known size; reads past the end come back short. */
export interface RandomAccessBytes {
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
}

/** Random-access reads of an open file. */
export function fileBytes(handle: FileHandle, size: number): RandomAccessBytes {
  return {
    size,
    async read(offset, length) {
      const wanted = Math.max(0, Math.min(length, size - offset));
      const buffer = Buffer.alloc(wanted);
      let done = 0;
      while (done < wanted) {
        const { bytesRead } = await handle.read(buffer, done, wanted - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === wanted ? buffer : buffer.subarray(0, done);
    },
  };
}

/** Random-access reads of bytes in memory (tests, small files). */
export function bufferBytes(bytes: Buffer): RandomAccessBytes {
  return { size: bytes.length, read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)) };
}
