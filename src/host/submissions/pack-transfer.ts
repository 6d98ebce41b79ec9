import type { PackProgress } from '../../blend/pack';
import { ProgressMeter } from '../../core/transfer';
import type { Clock } from '../../core/util';
import type { TransferView } from '../../shared/contract';

/**
 * Turns the packing progress of one submission into transfer views (`pack:<submission id>`), its rate
 * and time left from the same meter as uploads and downloads.
 */
export function packTransfer(submissionId: string, clock: Clock): (progress: PackProgress) => TransferView {
  const meter = new ProgressMeter({ clock, total: null, intervalMs: 0 });
  return (progress) => {
    meter.setTotal(progress.bytesTotal);
    const added = Math.max(0, progress.bytesDone - meter.bytes);
    const measured = progress.done ? (meter.add(added), meter.finish()) : (meter.add(added) ?? meter.peek());
    return {
      id: `pack:${submissionId}`,
      kind: 'pack',
      submissionId,
      jobId: null,
      bytes: progress.bytesDone,
      total: progress.bytesTotal,
      rate: measured.rate,
      etaSeconds: measured.etaSeconds,
      done: progress.done,
    };
  };
}
