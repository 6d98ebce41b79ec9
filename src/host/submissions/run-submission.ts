import { isFinished } from '../../core/journal';
import { awaitsDecision, stopReached, type ClaimedSubmission } from '../../core/lifecycle';
import { leftOutFiles, missingPlaces } from '../../core/packing';
import type { ProfileJobs } from '../jobs';
import type { TrackedSubmission } from './tracked-submission';

/**
 * Advances a claimed submission up to the point where what travels is known, holding it there (`hold`)
 * when files it uses are missing, then up to review (none when it starts straight away), then to the
 * end; `decide` when it waits for the scene of a zip to be chosen. A proposal to review is put in the
 * profile's queue.
 */
export async function runSubmission(tracked: TrackedSubmission, claimed: ClaimedSubmission, jobs: Pick<ProfileJobs, 'put'>): Promise<'hold' | 'decide' | void> {
  const signal = tracked.abort.signal;
  if (!tracked.filesAccepted) {
    await claimed.advance({ until: 'traced', signal });
    const { record } = claimed;
    const privateHeld = leftOutFiles(record.packing?.privateFiles).length > 0;
    if (record.step === 'traced' && !isFinished(record) && (missingPlaces(record.packing).length > 0 || privateHeld)) {
      tracked.heldForMissing = true;
      return 'hold';
    }
  }
  const until = tracked.autoStart ? 'done' : 'validated';
  let record = await claimed.advance({ until, signal });
  while (!stopReached(record, until)) {
    if (awaitsDecision(record)) return 'decide';
    record = await claimed.advance({ until, signal });
  }
  if (claimed.record.step === 'validated' && !isFinished(claimed.record)) {
    const proposal = await claimed.review({ signal });
    if (proposal !== null) {
      tracked.proposal = proposal;
      tracked.awaitingReview = true;
      jobs.put(proposal.job);
      return 'hold';
    }
  }
  await claimed.advance({ until: 'done', signal });
}
