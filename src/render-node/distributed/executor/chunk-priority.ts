import type { Queue } from 'bullmq';
import { PRIORITY } from '../../../shared/api';
import type { ChunkRecord } from '../chunks-repo';
import { chunkJobId } from '../protocol';

/**
 * The BullMQ priority of a job's chunks: lower is taken first, so the job's priority 100 gives 1 and 0
 * gives 101. Every chunk has one (never 0), so all of them share BullMQ's one ordered set, where chunks of
 * one priority keep the order they were queued in.
 */
export function chunkPriority(priority: number): number {
  return PRIORITY.max + 1 - Math.min(PRIORITY.max, Math.max(PRIORITY.min, Math.round(priority)));
}

/**
 * Give queued chunks (BullMQ ids) a new BullMQ priority: each one waiting moves to its new place at
 * once; one a worker holds keeps it for a retry; finished and missing ones are left alone.
 */
export async function setChunkPriority(queue: Queue, ids: readonly string[], priority: number): Promise<void> {
  await Promise.all(
    ids.map(async (id) => {
      const chunk = await queue.getJob(id);
      if (!chunk || chunk.finishedOn || chunk.priority === priority) return;
      await chunk.changePriority({ priority }).catch((err: unknown) => {
        if (!/missing/i.test(String(err))) throw err;
      });
    }),
  );
}

/**
 * Give a render's chunks in the queue the job's priority `now` when it is not the one they were queued
 * with (`had`; null: not known); resolves the priority they have.
 */
export async function followPriority(queue: Queue, jobId: string, chunks: Iterable<ChunkRecord>, had: number | null, now: number | undefined): Promise<number | null> {
  if (now === undefined || now === had) return had;
  await setChunkPriority(queue, [...chunks].map((c) => chunkJobId(jobId, c.index, c.generation)), chunkPriority(now));
  return now;
}
