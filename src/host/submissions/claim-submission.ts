import { SubmissionLifecycle, type ClaimedSubmission, trackerWaiter } from '../../core/lifecycle';
import { packTransfer } from './pack-transfer';
import type { HostSubmissionsDeps, TrackedSubmission } from './tracked-submission';

/**
 * Claims a tracked submission through the lifecycle and wires what it reports to the app: its steps
 * (remembered, and shown through `emit`), pack and upload progress as transfers, its job in the
 * profile's queue, and its download progress.
 */
export async function claimSubmission(tracked: TrackedSubmission, d: HostSubmissionsDeps, emit: (tracked: TrackedSubmission) => void): Promise<ClaimedSubmission> {
  const lifecycle = new SubmissionLifecycle({
    client: d.client,
    journal: d.journal,
    waitForJob: trackerWaiter(d.tracker),
    downloadRoot: tracked.record.download.root ?? d.downloadRoot(),
    clock: d.clock,
  });
  const claimed = await lifecycle.claim(tracked.record);
  tracked.claimed = claimed;
  tracked.record = claimed.record;
  const id = tracked.record.id;
  claimed.on('step', ({ record }) => {
    tracked.record = record;
    d.submitted.remember(record);
    if (record.ending !== null && record.jobId !== null) d.downloads.followEnded(record.jobId);
    emit(tracked);
  });
  const packing = packTransfer(id, d.clock);
  claimed.on('pack', (p) => d.events.emit('transfer.progress', packing(p)));
  claimed.on('upload', (p) => d.events.emit('transfer.progress', { id: `upload:${id}`, kind: 'upload', submissionId: id, jobId: null, ...p }));
  claimed.on('job', ({ job }) => {
    d.submitted.rememberAs(job.id, tracked.record);
    d.jobs.put(job);
  });
  claimed.on('download', (p) => d.downloads.progress(p, claimed.record.download.dir));
  claimed.on('framesOnDisk', (p) => d.downloads.framesOnDisk(p, claimed.record.download.dir));
  return claimed;
}
