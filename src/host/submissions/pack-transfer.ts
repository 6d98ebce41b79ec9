import type { PackProgress } from '../../blend/pack';
import type { Clock } from '../../core/util';
import type { TransferView } from '../../shared/contract';

/**
 * Turns the packing progress of one submission into transfer views (`pack:<submission id>`), with the
 * average rate since packing started and the time left at that rate.
 */
export function packTransfer(submissionId: string, clock: Clock): (progress: PackProgress) => TransferView {
  let startedAt: number | null = null;
  return (progress) => {
    const now = clock.now();
    startedAt ??= now;
    const seconds = (now - startedAt) / 1000;
    const rate = seconds > 0 ? progress.bytesDone / seconds : 0;
    const left = progress.bytesTotal - progress.bytesDone;
    return {
      id: `pack:${submissionId}`,
      kind: 'pack',
      submissionId,
      jobId: null,
      bytes: progress.bytesDone,
      total: progress.bytesTotal,
      rate,
      etaSeconds: progress.done ? 0 : rate > 0 ? left / rate : null,
      done: progress.done,
    };
  };
}
