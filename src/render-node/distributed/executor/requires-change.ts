import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { ChunkRecord } from '../chunks-repo';
import { chunkJobId } from '../protocol';

/** Whether two tag lists hold the same tags. */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t) => b.includes(t));
}

/**
 * After the tags a render requires changed: each of its chunks in the queue that was signed with other
 * tags is taken off and queued again through `enqueue`, signed with `requires`. A chunk a worker holds
 * right now (BullMQ does not remove a held entry) is tried again at the next check. Resolves whether
 * any chunk is still signed with other tags.
 */
export async function resignChunks(queue: Queue, jobId: string, chunks: readonly ChunkRecord[], requires: readonly string[], enqueue: (chunk: ChunkRecord) => Promise<void>, log: Logger): Promise<boolean> {
  let left = false;
  let moved = 0;
  for (const chunk of chunks) {
    const id = chunkJobId(jobId, chunk.index, chunk.generation);
    const state = await queue.getJobState(id);
    if (state !== 'waiting' && state !== 'prioritized' && state !== 'delayed' && state !== 'active') continue;
    const signed: unknown = (await queue.getJob(id))?.data?.requires;
    if (Array.isArray(signed) && sameTags(signed as string[], requires)) continue;
    if (state === 'active' || (await queue.remove(id)) !== 1) {
      left = true;
      continue;
    }
    await enqueue(chunk);
    moved++;
  }
  if (moved > 0) log.info({ jobId, requires, chunks: moved }, 'the tags the render requires changed: its waiting chunks were queued again with them');
  return left;
}
