import type { IncomingMessage } from 'node:http';
import { CHUNK_BATCH_CONTENT_TYPE } from '../../shared/api';
import { AbortError, errorCode, TransferError } from '../errors';
import { isTransientNetworkError, readSmallBody, transportFor } from '../transfer';
import { abortableSleep, fullJitterDelay } from '../util';

/** Where a batch goes and with which headers. */
export interface BatchTarget {
  url: string;
  headers: Record<string, string>;
  signal?: AbortSignal;
  /** Attempts after dropped connections and 5xx (default 4): a batch may be sent again, the node stores each chunk once. */
  maxAttempts?: number;
  /** Called with the bytes of the body as they leave. */
  onSent?: (bytes: number) => void;
}

type Outcome = { kind: 'response'; status: number; body: string } | { kind: 'network'; error: Error };

/** Sends one batch of framed chunks in one PUT, again after a dropped connection or a 5xx. */
export async function sendChunkBatch(body: Buffer, target: BatchTarget): Promise<void> {
  const maxAttempts = target.maxAttempts ?? 4;
  for (let attempt = 1; ; attempt++) {
    const outcome = await putBatch(body, target);
    if (outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300) return;
    const retryable = outcome.kind === 'network' ? isTransientNetworkError(outcome.error) : outcome.status >= 500 && outcome.status !== 507;
    if (!retryable || attempt >= maxAttempts) throw batchError(outcome, attempt);
    await abortableSleep(fullJitterDelay(attempt - 1, { baseDelayMs: 500, capDelayMs: 10_000 }, Math.random), target.signal);
  }
}

function putBatch(body: Buffer, target: BatchTarget): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    if (target.signal?.aborted) {
      reject(new AbortError('Upload stopped.'));
      return;
    }
    const url = new URL(target.url);
    const request = transportFor(url).request(url, {
      method: 'PUT',
      headers: { ...target.headers, 'content-type': CHUNK_BATCH_CONTENT_TYPE, 'content-length': String(body.length) },
    });
    const onAbort = () => {
      request.destroy();
      reject(new AbortError('Upload stopped.'));
    };
    target.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (outcome: Outcome) => {
      target.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    request.setTimeout(60_000, () => request.destroy(Object.assign(new Error('The upload stalled.'), { code: 'ETIMEDOUT' })));
    request.on('error', (error) => settle({ kind: 'network', error }));
    request.on('response', (response: IncomingMessage) => {
      void readSmallBody(response).then((text) => settle({ kind: 'response', status: response.statusCode ?? 0, body: text }));
    });
    const piece = 256 * 1024;
    let at = 0;
    const writeMore = () => {
      while (at < body.length) {
        const part = body.subarray(at, Math.min(body.length, at + piece));
        at += part.length;
        const size = part.length;
        const more = request.write(part, () => target.onSent?.(size));
        if (!more) {
          request.once('drain', writeMore);
          return;
        }
      }
      request.end();
    };
    writeMore();
  });
}

function batchError(outcome: Outcome, attempts: number): TransferError {
  if (outcome.kind === 'network') {
    const code = errorCode(outcome.error);
    return new TransferError(`The upload failed after ${attempts} attempts: the connection broke (${code ?? outcome.error.message}). Check the network and submit again; what already arrived is not sent again.`, { code: code ?? 'network' });
  }
  if (outcome.status === 507) {
    return new TransferError('The server ran out of disk space and could not store the file (507). Nothing is wrong with your file: once space is freed on the server (ask whoever runs it), try again.', { status: 507, code: 'server-disk-full' });
  }
  const said = outcome.body.trim() === '' ? '' : `: ${outcome.body.trim().slice(0, 200)}`;
  return new TransferError(`The render node refused part of the upload (${outcome.status}${said}). Submit the file again; if it persists, check the node.`, { status: outcome.status });
}
