import { queryJobs, type JobCounts, type JobFilter, type JobSummary } from '../../shared/contract';

/** What the queue shows: the rows under the chip and search, and the count of every chip. */
export interface VisibleQueue {
  jobs: JobSummary[];
  counts: JobCounts;
}

interface QueueInput {
  byId: Map<string, JobSummary>;
  version: number;
  filter: JobFilter;
  search: string;
}

let cache: { version: number; filter: JobFilter; search: string; byId: Map<string, JobSummary>; value: VisibleQueue } | null = null;

/** The visible queue, computed once per change of jobs, chip or search (shared by every reader). */
export function selectVisibleQueue(state: QueueInput): VisibleQueue {
  if (cache && cache.version === state.version && cache.filter === state.filter && cache.search === state.search && cache.byId === state.byId) {
    return cache.value;
  }
  const value = queryJobs([...state.byId.values()], { filter: state.filter, search: state.search });
  cache = { version: state.version, filter: state.filter, search: state.search, byId: state.byId, value };
  return value;
}

/** Jobs being worked on (for the window title and the header). */
export function selectActiveCount(state: QueueInput): number {
  return selectVisibleQueue({ ...state, filter: 'all', search: '' }).counts.active;
}
