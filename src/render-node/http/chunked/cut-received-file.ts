import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { GearChunker } from '../../../blend/chunking';
import { CHUNKING, type ManifestChunk } from '../../../shared/api';
import type { ChunkedUploadRecord, ChunkStore } from '../../chunk-store';

/** Bytes of chunks stored at once while a file received whole is cut. */
const STORE_BATCH_BYTES = 4 * 1024 * 1024;

/** Bytes read at once. */
const READ_BYTES = 1024 * 1024;

/**
 * Cuts a file a key sent whole without describing its chunks (a project the client had not sent this
 * node before) with the same content-defined chunker the client uses, and stores every chunk as sent
 * by that key (it did send those bytes). `complete`: the file arrived whole, so its chunk
 * list becomes the upload's (render workers then fetch it in chunks); otherwise only the chunks that
 * arrived whole are kept (the last, cut short, is not). The whole file's SHA-256 is checked on the way:
 * a file that is not the one described keeps its chunks (they are bytes the key sent, named by the
 * node's own hashes) but no chunk list, and the error says so. Answers how many chunks were stored.
 */
export async function cutReceivedFile(store: ChunkStore, upload: ChunkedUploadRecord, path: string, complete: boolean): Promise<number> {
  const chunker = new GearChunker(CHUNKING);
  const list: ManifestChunk[] = [];
  let batch: { hash: string; bytes: Buffer }[] = [];
  let batchBytes = 0;
  let stored = 0;
  let pieces: Buffer[] = [];
  const whole = complete ? createHash('sha256') : null;
  const flush = async () => {
    store.putAll(upload.keyId, batch);
    stored += batch.length;
    batch = [];
    batchBytes = 0;
    await nextTurn();
  };
  const endChunk = async () => {
    const bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
    pieces = [];
    const hash = createHash('sha256').update(bytes).digest('hex');
    list.push({ hash, size: bytes.length });
    batch.push({ hash, bytes });
    batchBytes += bytes.length;
    if (batchBytes >= STORE_BATCH_BYTES) await flush();
  };
  const file = await open(path, 'r');
  try {
    for (let position = 0; ; ) {
      const data = Buffer.allocUnsafe(READ_BYTES);
      const { bytesRead } = await file.read(data, 0, READ_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const piece = data.subarray(0, bytesRead);
      whole?.update(piece);
      let from = 0;
      for (const cut of chunker.cuts(piece)) {
        pieces.push(piece.subarray(from, cut));
        await endChunk();
        from = cut;
      }
      if (from < piece.length) pieces.push(piece.subarray(from));
    }
    if (chunker.finish() > 0 && complete) await endChunk();
    await flush();
  } finally {
    await file.close();
  }
  if (whole !== null && whole.digest('hex') !== upload.sha256) throw new Error('the file received whole is not the one described (its SHA-256 differs); it keeps no chunk list');
  if (complete) store.setChunks(upload.id, list);
  return stored;
}
