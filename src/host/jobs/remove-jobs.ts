import { isActiveStatus, needsReview } from '../../shared/api';
import type { JobRemoval } from '../../shared/contract';
import type { ProfileJobs } from './profile-jobs';

/** What removing jobs from the list needs of the active profile. */
export interface RemoveJobsDeps {
  jobs: ProfileJobs;
  /** Cancels a job still at work (a job at review is discarded: nothing renders). */
  cancel(jobId: string): Promise<unknown>;
}

/**
 * "Remove from list": jobs still at work or waiting for review are canceled first (the artist was
 * asked), then every job is hidden on this computer for this profile. The farm keeps the jobs and
 * their files: the API has no route that deletes a job.
 */
export async function removeJobs(deps: RemoveJobsDeps, jobIds: readonly string[]): Promise<JobRemoval> {
  const unique = [...new Set(jobIds)];
  let canceled = 0;
  for (const id of unique) {
    const summary = deps.jobs.queue.get(id);
    if (!summary || !(isActiveStatus(summary.status) || needsReview(summary.status))) continue;
    try {
      await deps.cancel(id);
      canceled++;
    } catch {
      // A job that ended meanwhile cannot be canceled; it is hidden all the same.
    }
  }
  await deps.jobs.hide(unique);
  return { removed: unique.length, canceled };
}
