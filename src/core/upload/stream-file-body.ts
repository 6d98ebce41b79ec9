import { open } from 'node:fs/promises';
import { errorReason, TransferError } from '../errors';

/** Whether the request still takes bytes: closed for good once the storage answers or the request ends. */
export interface SendGate {
  isOpen(): boolean;
  /** Settles when the gate closes. */
  readonly closed: Promise<void>;
  close(): void;
}

/** A gate that is open until {@link SendGate.close} is called. */
export function sendGate(): SendGate {
  let open = true;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((done) => (markClosed = done));
  return {
    isOpen: () => open,
    closed,
    close: () => {
      open = false;
      markClosed();
    },
  };
}

/** Where a file's bytes go. */
export interface BodySink {
  write(chunk: Buffer, written: () => void): void;
  end(): void;
}

/** The file to send and how. */
export interface FileBody {
  filePath: string;
  /** Bytes to send (the file's size when the upload began). */
  size: number;
  /** Read size from disk. */
  chunkBytes: number;
  /** Called with the size of every chunk handed to the sink. */
  onChunk: (bytes: number) => void;
}

/**
 * Sends a file to a sink through two reusable buffers that alternate: the next chunk is read from
 * disk while the previous one is written, so memory stays at two chunks and no garbage is made per
 * chunk whatever the file size. A buffer is refilled only once its previous write has completed.
 * Stops without ending the sink as soon as the gate closes. Throws a TransferError when the file
 * cannot be read or is shorter than `size`.
 */
export async function streamFileBody(body: FileBody, sink: BodySink, gate: SendGate): Promise<void> {
  let handle;
  try {
    handle = await open(body.filePath, 'r');
  } catch (error) {
    throw readFailure(error);
  }
  try {
    const buffers = [Buffer.allocUnsafe(body.chunkBytes), Buffer.allocUnsafe(body.chunkBytes)];
    const inFlight: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
    let position = 0;
    for (let k = 0; position < body.size; k++) {
      const slot = k % 2;
      await Promise.race([inFlight[slot], gate.closed]);
      if (!gate.isOpen()) return;
      const buffer = buffers[slot]!;
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, 0, Math.min(body.chunkBytes, body.size - position), position));
      } catch (error) {
        throw readFailure(error);
      }
      if (bytesRead === 0) {
        throw new TransferError(`The file changed during the upload (${position} of ${body.size} bytes read). Save it, then submit it again.`, { code: 'file-changed' });
      }
      position += bytesRead;
      if (!gate.isOpen()) return;
      inFlight[slot] = new Promise<void>((written) => sink.write(buffer.subarray(0, bytesRead), written));
      body.onChunk(bytesRead);
    }
    await Promise.race([Promise.all(inFlight), gate.closed]);
    if (gate.isOpen()) sink.end();
  } finally {
    await handle.close();
  }
}

function readFailure(error: unknown): TransferError {
  const reason = errorReason(error);
  return new TransferError(`The file could not be read during the upload (${reason}). Check the disk and submit again.`, { code: 'read-failed' });
}
