import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { ChunkData } from '../distributed';
import { pathStripper } from '../logs';
import type { NodeClient } from './node-client';
import { WorkerLogSender } from './log-sender';

/** Longest a batch of log lines is retried before it is dropped: a log is never worth holding a worker up. */
const LOG_BATCH_PATIENCE_MS = 15_000;

/**
 * The sender of a chunk's Blender lines to the node, under this worker's name, with the worker's
 * cache folder shown as `<worker>` and its home folder as `~`. Sending stops with `signal` (the chunk
 * stopped, the worker shutting down), and a batch the node does not take within 15 s is dropped.
 */
export function chunkLogSender(chunk: ChunkData, ctx: { name: string; workDir: string; client: Pick<NodeClient, 'putLog'> }, signal: AbortSignal): WorkerLogSender {
  const strip = pathStripper([
    { path: dirname(ctx.workDir), placeholder: '<worker>' },
    { path: homedir(), placeholder: '~' },
  ]);
  return new WorkerLogSender((text) => ctx.client.putLog(chunk, ctx.name, text, AbortSignal.any([signal, AbortSignal.timeout(LOG_BATCH_PATIENCE_MS)])), strip);
}
