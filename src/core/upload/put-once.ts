import type { ClientRequest, IncomingMessage } from 'node:http';
import { UPLOAD_CONTENT_TYPES, type FileType } from '../../shared/api';
import { AbortError } from '../errors';
import { type ProgressMeter, readSmallBody, STORAGE_HEADERS, type TransferProgress, transportFor } from '../transfer';
import { sendGate, streamFileBody, type SendGate } from './stream-file-body';

/** How one PUT ended: the storage's answer, or a connection that broke. */
export type PutOutcome = { kind: 'response'; status: number; body: string; retryAfter?: string } | { kind: 'network'; error: Error };

/** The file one PUT sends and how. */
export interface PutOptions {
  filePath: string;
  /** Exact size in bytes; sent as Content-Length. */
  size: number;
  fileType: FileType;
  /** Read size from disk (default 1 MiB). */
  chunkBytes?: number;
  /** Idle time after which a stalled connection is dropped (default 60 s). */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: TransferProgress) => void;
}

/** Settles a PUT once: with an outcome, or with an error that rejects it. */
type Finish = (outcome: PutOutcome | Error) => void;

/**
 * One PUT of the file, streamed from disk two chunks at a time (see {@link streamFileBody}). Sending
 * stops for good as soon as the storage answers (an early answer is a refusal, and the request is
 * then destroyed rather than left to drain the rest of the file).
 *
 * This is the one request of core that does not go through got, on purpose: `npm run bench -- upload
 * --sizes=1G --runs=3`, same machine and load, measured got's stream PUT (a file stream piped into
 * `got.stream.put`) at 199 MiB/s, 0.48 of curl, 0.93 s CPU per GiB and 129 MB peak RSS, against
 * 488 MiB/s, 1.15 of curl, 0.38 s CPU per GiB and 93 MB for this one. Downloads and API calls use got.
 */
export function putOnce(url: string, options: PutOptions, meter: ProgressMeter): Promise<PutOutcome> {
  return new Promise<PutOutcome>((resolve, reject) => {
    const parsed = new URL(url);
    const request = transportFor(parsed).request(parsed, {
      method: 'PUT',
      agent: false,
      headers: { ...STORAGE_HEADERS, 'content-length': String(options.size), 'content-type': UPLOAD_CONTENT_TYPES[options.fileType] },
    });
    const gate = sendGate();
    let settled = false;
    const finish: Finish = (outcome) => {
      if (settled) return;
      settled = true;
      gate.close();
      options.signal?.removeEventListener('abort', onAbort);
      if (outcome instanceof Error) {
        request.destroy();
        reject(outcome);
        return;
      }
      const accepted = outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300;
      if (!accepted || !request.writableEnded) request.destroy();
      resolve(outcome);
    };
    const onAbort = () => finish(new AbortError('Upload stopped.'));
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    watchRequest(request, options.idleTimeoutMs ?? 60_000, gate, finish);
    sendFile(request, options, meter, gate).catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
  });
}

/** Turns the request's stall, error and answer into outcomes; an answer closes the gate at once. */
function watchRequest(request: ClientRequest, idleTimeoutMs: number, gate: SendGate, finish: Finish): void {
  request.setTimeout(idleTimeoutMs, () => {
    finish({ kind: 'network', error: Object.assign(new Error('The upload stalled.'), { code: 'ETIMEDOUT' }) });
  });
  request.on('error', (error) => finish({ kind: 'network', error }));
  request.on('response', (response: IncomingMessage) => {
    gate.close();
    const retryAfter = response.headers['retry-after'];
    void readSmallBody(response).then((body) =>
      finish({ kind: 'response', status: response.statusCode ?? 0, body, ...(retryAfter !== undefined ? { retryAfter } : {}) }),
    );
  });
}

/** Streams the file into the request, reporting throttled progress as chunks go out. */
function sendFile(request: ClientRequest, options: PutOptions, meter: ProgressMeter, gate: SendGate): Promise<void> {
  const onChunk = (bytes: number) => {
    const event = meter.add(bytes);
    if (event) options.onProgress?.(event);
  };
  const sink = { write: (chunk: Buffer, written: () => void) => request.write(chunk, () => written()), end: () => request.end() };
  return streamFileBody({ filePath: options.filePath, size: options.size, chunkBytes: options.chunkBytes ?? 1024 * 1024, onChunk }, sink, gate);
}
