import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { ChunkData } from '../distributed/protocol';
import { pathStripper } from '../logs/strip-paths';
import type { NodeClient } from './node-client';
import { WorkerLogSender } from './log-sender';

/**
 * The sender of a chunk's Blender lines to the node, under this worker's name, with the worker's
 * cache folder shown as `<worker>` and its home folder as `~`.
 */
export function chunkLogSender(chunk: ChunkData, ctx: { name: string; workDir: string; client: Pick<NodeClient, 'putLog'> }): WorkerLogSender {
  const strip = pathStripper([
    { path: dirname(ctx.workDir), placeholder: '<worker>' },
    { path: homedir(), placeholder: '~' },
  ]);
  return new WorkerLogSender((text) => ctx.client.putLog(chunk, ctx.name, text), strip);
}
