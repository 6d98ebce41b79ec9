import { createWriteStream } from 'node:fs';
import { readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { diskFailure, isFileSystemError, onDisk } from './disk-failure';

/** Who receives the bytes of a `.part` file. */
export interface PartFileWriter {
  /** The final path of the file (named in disk errors). */
  path: string;
  /** Called with every chunk's size. */
  onBytes: (count: number) => void;
  signal?: AbortSignal;
}

/** Size of the file at `path`; null when there is none. */
export async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

/** The ETag the `.part` bytes came from, kept beside it; undefined when unknown. */
export async function readEtag(etagPath: string): Promise<string | undefined> {
  try {
    const text = (await readFile(etagPath, 'utf8')).trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Keeps the ETag of the `.part` bytes beside it (removes the record when the server sent none). */
export async function writeEtag(path: string, etagPath: string, etag: string | undefined): Promise<void> {
  if (etag === undefined) await unlink(etagPath).catch(() => undefined);
  else await onDisk(path, writeFile(etagPath, etag, 'utf8'));
}

/**
 * Streams a response body into the `.part` file (appending when resuming), counting bytes as they
 * arrive. A file system failure becomes a TransferError about the folder; anything else is thrown as is.
 */
export async function writeBody(body: Readable, partPath: string, append: boolean, writer: PartFileWriter): Promise<void> {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      writer.onBytes(chunk.length);
      callback(null, chunk);
    },
  });
  const out = createWriteStream(partPath, { flags: append ? 'a' : 'w', highWaterMark: 1024 * 1024 });
  let diskError: NodeJS.ErrnoException | null = null;
  out.on('error', (error: NodeJS.ErrnoException) => {
    if (isFileSystemError(error)) diskError ??= error;
  });
  try {
    await pipeline(body, counter, out, writer.signal ? { signal: writer.signal } : {});
  } catch (error) {
    if (diskError !== null && !writer.signal?.aborted) throw diskFailure(writer.path, diskError);
    throw error;
  }
}
