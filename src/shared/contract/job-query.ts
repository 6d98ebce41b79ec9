import { isActiveStatus, isTerminalStatus, needsReview } from '../api';
import type { JobCounts, JobFilter, JobSummary } from './job-views';

/** Whether a job belongs under a status filter chip. */
export function matchesFilter(job: Pick<JobSummary, 'status'>, filter: JobFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'active':
      return isActiveStatus(job.status);
    case 'review':
      return needsReview(job.status);
    default:
      return job.status === filter;
  }
}

/** The search text folded for comparison (case and accents ignored). */
export function foldSearch(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
}

/** Whether a job matches a folded search text (file name, id or status). */
export function matchesSearch(job: Pick<JobSummary, 'fileName' | 'id' | 'status'>, folded: string): boolean {
  if (folded === '') return true;
  return foldSearch(job.fileName).includes(folded) || job.id.toLowerCase().startsWith(folded) || job.status === folded;
}

/** Counts of every filter over `jobs`. */
export function countJobs(jobs: readonly Pick<JobSummary, 'status'>[]): JobCounts {
  const counts: JobCounts = { all: 0, active: 0, review: 0, completed: 0, failed: 0, canceled: 0 };
  for (const job of jobs) {
    counts.all++;
    if (isActiveStatus(job.status)) counts.active++;
    else if (needsReview(job.status)) counts.review++;
    else if (isTerminalStatus(job.status)) counts[job.status]++;
  }
  return counts;
}

/** Newest first, then by id so the order is stable. */
export function compareJobs(a: Pick<JobSummary, 'createdAt' | 'id'>, b: Pick<JobSummary, 'createdAt' | 'id'>): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The queue as shown: jobs matching the search, counted per filter, then those under `filter`, newest
 * first. One pass over the list, so it stays fast for tens of thousands of jobs.
 */
export function queryJobs(
  jobs: readonly JobSummary[],
  query: { filter?: JobFilter; search?: string },
): { jobs: JobSummary[]; counts: JobCounts } {
  const folded = foldSearch(query.search ?? '');
  const filter = query.filter ?? 'all';
  const searched = folded === '' ? jobs : jobs.filter((j) => matchesSearch(j, folded));
  const counts = countJobs(searched);
  const shown = filter === 'all' ? [...searched] : searched.filter((j) => matchesFilter(j, filter));
  shown.sort(compareJobs);
  return { jobs: shown, counts };
}
