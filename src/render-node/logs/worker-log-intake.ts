import type { Readable } from 'node:stream';
import { HttpError } from '../http-error';
import type { JobLogs } from './job-logs';

/** Most bytes of log lines a worker may send in one request. */
export const MAX_WORKER_LOG_BYTES = 256 * 1024;

/** A worker name fit for the start of a log line: printable, at most 40 characters. */
export function workerLabel(header: string | string[] | undefined): string {
  const raw = (Array.isArray(header) ? header[0] : header) ?? '';
  const clean = raw.replace(/[^\p{L}\p{N} ._@-]/gu, '').trim().slice(0, 40);
  return clean === '' ? 'worker' : clean;
}

/**
 * Add the lines a render worker sent for a job to the job's log, each after the worker's name in
 * brackets; the node's own folders are replaced as in every line of the log. Refuses a body larger
 * than {@link MAX_WORKER_LOG_BYTES} before reading it. Resolves to the number of lines kept.
 */
export async function receiveWorkerLog(logs: JobLogs, jobId: string, name: string | string[] | undefined, file: { body: Readable; length: number }): Promise<number> {
  if (file.length > MAX_WORKER_LOG_BYTES) {
    file.body.resume();
    throw new HttpError(413, 'log_too_large', `Send at most ${MAX_WORKER_LOG_BYTES} bytes of log lines at once.`);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of file.body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    received += bytes.length;
    if (received > MAX_WORKER_LOG_BYTES) throw new HttpError(413, 'log_too_large', `Send at most ${MAX_WORKER_LOG_BYTES} bytes of log lines at once.`);
    chunks.push(bytes);
  }
  const lines = Buffer.concat(chunks).toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const write = logs.writer(jobId, `[${workerLabel(name)}] `);
  for (const line of lines) write(line.replace(/\r$/, ''));
  return lines.length;
}
