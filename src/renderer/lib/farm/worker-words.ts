import type { WorkerBlock, WorkerInfo } from '../../../shared/api';
import { describeFrames } from '../../../shared/render';
import { formatWhen } from '../job-times';

/** A job as the Workers view names it: its scene's name in quotes when the queue has it, else its short id. */
export function jobName(jobId: string, jobNames: Readonly<Record<string, string>>): string {
  const name = jobNames[jobId];
  return name !== undefined ? `“${name}”` : `job ${jobId.slice(0, 8)}`;
}

/** What a worker is doing, in words: Idle; Rendering “shot_010” frames 5-8; Disk full; Offline since 10:42. */
export function workerStateText(worker: WorkerInfo, jobNames: Readonly<Record<string, string>>, now: number): string {
  if (worker.state === 'offline') return `Offline since ${formatWhen(worker.lastSeenAt, now)}`;
  if (worker.current) {
    const on = worker.current.frame === null ? '' : ` (on ${worker.current.frame})`;
    return `Rendering ${jobName(worker.current.jobId, jobNames)} frames ${describeFrames(worker.current.frames)}${on}`;
  }
  if (worker.state === 'disk-full') return 'Disk full';
  return 'Idle';
}

/** A block in words: “render-02 is kept from “shot_010” (it failed its frames twice)”. */
export function blockText(block: WorkerBlock, jobNames: Readonly<Record<string, string>>): string {
  const what = block.jobId === null ? 'every job' : jobName(block.jobId, jobNames);
  const why = block.by === 'failures' ? ' after failing its frames' : '';
  return `${block.worker} is kept from ${what}${why}`;
}

/** The blocks of one worker: for every job, and for which jobs. */
export function blocksOf(worker: string, blocks: readonly WorkerBlock[] | undefined): { everyJob: WorkerBlock | null; jobs: WorkerBlock[] } {
  const mine = (blocks ?? []).filter((b) => b.worker === worker);
  return { everyJob: mine.find((b) => b.jobId === null) ?? null, jobs: mine.filter((b) => b.jobId !== null) };
}
