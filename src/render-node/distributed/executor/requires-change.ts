import type { Queue } from 'bullmq';
import type { ChunkRecord } from '../chunks-repo';
import { chunkJobId } from '../protocol';

/** Whether two tag lists hold the same tags. */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t) => b.includes(t));
}

/**
 * After the tags a render requires changed: each of its chunks still waiting in the queue (or handed
 * over) is taken off and queued again through `enqueue`, signed with the new tags. A chunk a worker took
 * meanwhile is left to it (BullMQ does not remove a held entry). Resolves how many were queued again.
 */
export async function requeueWaitingChunks(queue: Queue, jobId: string, chunks: readonly ChunkRecord[], enqueue: (chunk: ChunkRecord) => Promise<void>): Promise<number> {
  let moved = 0;
  for (const chunk of chunks) {
    const id = chunkJobId(jobId, chunk.index, chunk.generation);
    const state = await queue.getJobState(id);
    if (state !== 'waiting' && state !== 'prioritized' && state !== 'delayed') continue;
    if ((await queue.remove(id)) !== 1) continue;
    await enqueue(chunk);
    moved++;
  }
  return moved;
}
