import { open } from 'node:fs/promises';
import { MAX_CHUNK_BATCH_BYTES, type ChunkedUpload, type FileType } from '../../shared/api';
import { type ApiClient, completeChunkedUpload, createChunkedUpload } from '../api';
import { describeFile, frameChunk, looksCompressible, type LocalChunk } from '../chunking';
import { TransferError } from '../errors';
import { ProgressMeter, STORAGE_HEADERS, type TransferProgress } from '../transfer';
import { type Clock, systemClock, throwIfAborted } from '../util';
import { sendChunkBatch } from './send-chunk-batch';
import { uploadFile } from './upload';

/** A file to send in content-defined chunks to a Renderdrop node. */
export interface ChunkedUploadOptions {
  api: ApiClient;
  filePath: string;
  fileName: string;
  fileType: FileType;
  /** Exact size in bytes (from preflight or packing). */
  size: number;
  /** The file's SHA-256 when packing already computed it (the node checks the file against it). */
  sha256?: string;
  /**
   * This project was never sent to this node in chunks (see sentInChunksBefore): with `sha256` known,
   * a file that would not travel much smaller compressed goes whole in one PUT without being cut or
   * read first (a few windows are sampled), as fast as a presigned PUT, and the node cuts it into
   * chunks itself, kept as sent by this key for the next submission. A file that compresses well goes
   * in compressed chunks, as the bundle is stored undeflated for a node that takes chunks.
   */
  firstTime?: boolean;
  onProgress?: (progress: TransferProgress) => void;
  signal?: AbortSignal;
  clock?: Clock;
  /** Largest batch body (default 4 MiB; at most MAX_CHUNK_BATCH_BYTES): what a stop half-way loses at most. */
  batchBytes?: number;
  progressIntervalMs?: number;
}

/** A finished chunked upload: the slug of the upload the node rebuilt, and what travelled. */
export interface ChunkedUploadResult {
  slug: string;
  size: number;
  /** Bytes that left for the node (compressed chunks and their framing). */
  bytesSent: number;
  /** Bytes of the file the node already had from this key and that were not sent. */
  bytesReused: number;
  durationMs: number;
}

/**
 * Batch size: large enough that a request's overhead is nothing next to its bytes, small enough that a
 * stop half-way loses little (the node keeps every batch that arrived whole).
 */
const DEFAULT_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Share of a file the node has nothing of that must be new for it to be sent whole in one PUT rather
 * than in chunks, when it would not travel much smaller compressed: a first submission of a project
 * of textures then goes as fast as a presigned PUT, and the node keeps its chunks all the same (of the
 * part that arrived, when the PUT is cut short: the next try has some and goes on in chunks). A file
 * that compresses well goes in compressed chunks even the first time.
 */
const WHOLE_FILE_SHARE = 0.5;

/** Rounds of "complete, send what is still missing" before giving up (a chunk damaged on the node is asked for again). */
const MAX_ROUNDS = 4;

/**
 * Sends a file to a Renderdrop node as content-defined chunks (or, the first time, whole: `firstTime`): cuts and hashes it while reading it
 * once, asks the node which chunks it lacks from this key, sends only those (zstd-compressed when
 * that pays, in batches, the next batch prepared while the last one travels), and asks the node to
 * rebuild and check the file. A node that finds a chunk missing or damaged then answers which ones,
 * and those are sent again. Stopped half-way, a later call sends only what the node does not have yet.
 */
export async function uploadChunked(options: ChunkedUploadOptions): Promise<ChunkedUploadResult> {
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const call = options.signal ? { signal: options.signal } : {};
  if (options.firstTime && options.sha256 && !(await looksCompressible(options.filePath, options.size))) {
    const created = await createChunkedUpload(options.api, { fileName: options.fileName, fileType: options.fileType, manifest: { size: options.size, sha256: options.sha256 } }, call);
    return sendWhole(options, created, { size: options.size, sha256: options.sha256 }, clock, started);
  }
  const described = await describeFile(options.filePath, { ...(options.signal ? { signal: options.signal } : {}), ...(options.sha256 ? { sha256: options.sha256 } : {}) }).catch((error: unknown) => {
    throwIfAborted(options.signal);
    throw error;
  });
  if (described.size !== options.size) throw fileChanged();
  const created = await createChunkedUpload(
    options.api,
    { fileName: options.fileName, fileType: options.fileType, manifest: { size: described.size, sha256: described.sha256, chunks: described.chunks.map(({ hash, size }) => ({ hash, size })) } },
    call,
  );
  const byHash = new Map<string, LocalChunk>();
  for (const chunk of described.chunks) if (!byHash.has(chunk.hash)) byHash.set(chunk.hash, chunk);
  const toSend = (hashes: readonly string[]) => hashes.map((hash) => byHash.get(hash) ?? unknownChunk(hash));
  let missing = toSend(created.missing);
  const total = missing.reduce((sum, c) => sum + c.size, 0);
  const reused = described.size - total;
  const meter = new ProgressMeter({ clock, total, intervalMs: options.progressIntervalMs ?? 250 });
  const report = (event: TransferProgress | null) => {
    if (event) options.onProgress?.({ ...event, reused });
  };
  if (created.bytesReused === 0 && total >= described.size * WHOLE_FILE_SHARE && !(await looksCompressible(options.filePath, described.size))) {
    return sendWhole(options, created, described, clock, started);
  }
  report(meter.add(0));
  let bytesSent = 0;
  const target = { url: created.chunksUrl, headers: { ...STORAGE_HEADERS }, ...(options.signal ? { signal: options.signal } : {}), onSent: (n: number) => (bytesSent += n) };
  for (let round = 1; ; round++) {
    await sendChunks(options.filePath, missing, Math.min(options.batchBytes ?? DEFAULT_BATCH_BYTES, MAX_CHUNK_BATCH_BYTES), (body, rawBytes) => sendChunkBatch(body, target).then(() => report(meter.add(rawBytes))), options.signal);
    const completion = await completeChunkedUpload(options.api, created.id, call);
    if ('slug' in completion) {
      if (completion.sha256 !== described.sha256 || completion.size !== described.size) {
        throw new TransferError('The render node rebuilt a different file than the one sent. Submit the file again; if it persists, check the node.', { code: 'rebuilt-mismatch' });
      }
      report(meter.finish());
      return { slug: completion.slug, size: described.size, bytesSent, bytesReused: reused, durationMs: clock.now() - started };
    }
    if (round >= MAX_ROUNDS) {
      throw new TransferError(`The render node still lacked ${completion.missing.length} parts of the file after ${round} rounds of sending them. Submit the file again; if it persists, check the node's disk.`, { code: 'chunks-missing' });
    }
    missing = toSend(completion.missing);
    meter.setTotal(total + missing.reduce((sum, c) => sum + c.size, 0));
  }
}

/**
 * The whole file in one PUT to the upload's `wholeUrl`, as fast as a presigned PUT (retried, resumed
 * with a fresh start, with the same progress), then the node's answer of the upload it became. The
 * node keeps the file's chunks as sent by this key, so the next submission sends only what changed.
 */
async function sendWhole(options: ChunkedUploadOptions, created: ChunkedUpload, described: { size: number; sha256: string }, clock: Clock, started: number): Promise<ChunkedUploadResult> {
  const target = { uploadUrl: created.wholeUrl, slug: created.id, expiresAt: created.expiresAt };
  await uploadFile({
    filePath: options.filePath,
    size: described.size,
    fileType: options.fileType,
    target,
    clock,
    ...(options.onProgress ? { onProgress: (progress: TransferProgress) => options.onProgress!({ ...progress, reused: 0 }) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
  });
  const completion = await completeChunkedUpload(options.api, created.id, options.signal ? { signal: options.signal } : {});
  if (!('slug' in completion) || completion.sha256 !== described.sha256) {
    throw new TransferError('The render node did not keep the file sent. Submit the file again; if it persists, check the node.', { code: 'rebuilt-mismatch' });
  }
  return { slug: completion.slug, size: described.size, bytesSent: described.size, bytesReused: 0, durationMs: clock.now() - started };
}

/**
 * Reads the chunks from the file in order, frames them and hands batches to `send` (one in flight
 * while the next is built). A chunk that changed since the file was described is refused by the node
 * (its bytes no longer have its hash), so it is not hashed again here.
 */
async function sendChunks(filePath: string, chunks: readonly LocalChunk[], batchBytes: number, send: (body: Buffer, rawBytes: number) => Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (chunks.length === 0) return;
  const file = await open(filePath, 'r');
  let inFlight: Promise<void> = Promise.resolve();
  try {
    let frames: Buffer[] = [];
    let framed = 0;
    let raw = 0;
    const flush = async () => {
      const body = Buffer.concat(frames);
      const rawBytes = raw;
      frames = [];
      framed = raw = 0;
      await inFlight;
      inFlight = send(body, rawBytes);
      inFlight.catch(() => undefined);
    };
    for (const chunk of chunks) {
      throwIfAborted(signal);
      const bytes = Buffer.allocUnsafe(chunk.size);
      const { bytesRead } = await file.read(bytes, 0, chunk.size, chunk.offset);
      if (bytesRead !== chunk.size) throw fileChanged();
      const frame = frameChunk(chunk.hash, bytes);
      if (framed > 0 && framed + frame.length > batchBytes) await flush();
      frames.push(frame);
      framed += frame.length;
      raw += chunk.size;
    }
    if (framed > 0) await flush();
    await inFlight;
  } finally {
    await inFlight.catch(() => undefined);
    await file.close();
  }
}

function fileChanged(): TransferError {
  return new TransferError('The file changed during the upload. Save it, then submit it again.', { code: 'file-changed' });
}

function unknownChunk(hash: string): never {
  throw new TransferError(`The render node asked for a part of the file that is not in it (${hash.slice(0, 12)}…). Submit the file again; if it persists, check the node.`, { code: 'unknown-chunk' });
}
