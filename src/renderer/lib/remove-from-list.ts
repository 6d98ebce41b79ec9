import { isActiveStatus, needsReview } from '../../shared/api';
import type { JobSummary } from '../../shared/contract';
import { countOf } from '../../shared/text';
import { confirmFirst, type ConfirmRequest, useDetailStore, useQueueStore } from '../stores';
import { closeJobDetails } from './close-job-details';
import { command } from './command';

/** What removing these jobs from the list does, asked before it is done. */
export function removeQuestion(jobs: readonly Pick<JobSummary, 'fileName' | 'status'>[]): ConfirmRequest {
  const one = jobs.length === 1;
  const what = one ? jobs[0]!.fileName : countOf(jobs.length, 'job');
  const working = jobs.filter((j) => isActiveStatus(j.status) || needsReview(j.status)).length;
  const stops =
    working === 0
      ? ''
      : one
        ? ' It is still at work: its render is canceled first.'
        : ` ${countOf(working, 'job')} still at work ${working === 1 ? 'is' : 'are'} canceled first.`;
  return {
    title: `Remove ${what} from the list?`,
    message: `${one ? 'It is' : 'They are'} hidden on this computer for this farm. Frames already in your download folder stay, and the farm keeps ${one ? 'the job' : 'the jobs'}.${stops}`,
    confirm: 'Remove from list',
    keep: 'Keep in list',
  };
}

/** "Remove from list": asks first, then hides the jobs (closing their details) and unticks them. */
export async function removeFromList(jobs: readonly JobSummary[]): Promise<void> {
  if (jobs.length === 0 || !(await confirmFirst(removeQuestion(jobs)))) return;
  const ids = jobs.map((j) => j.id);
  const done = await command('jobs.remove', { jobIds: ids }, { what: `remove ${jobs.length === 1 ? jobs[0]!.fileName : countOf(jobs.length, 'job')} from the list` });
  if (done === null) return;
  useQueueStore.getState().setChecked(ids, false);
  const open = useDetailStore.getState().jobId;
  if (open !== null && ids.includes(open)) closeJobDetails(open);
}
