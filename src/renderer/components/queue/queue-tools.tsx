import { useId } from 'react';
import { JOB_FILTERS, type JobCounts, type JobFilter } from '../../../shared/contract';
import { useQueueStore } from '../../stores';
import { QueueSync } from './queue-sync';

const FILTER_LABELS: Record<JobFilter, string> = {
  all: 'All',
  active: 'Active',
  review: 'Needs review',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
};

/** Above the queue: filter chips with their counts, the search field, and how current the queue is. */
export function QueueTools(props: { filter: JobFilter; search: string; counts: JobCounts }) {
  const searchId = useId();
  return (
    <div className="queue-tools">
      <div className="chips" role="group" aria-label="Filter by status">
        {JOB_FILTERS.map((f) => (
          <button key={f} type="button" className="chip" aria-pressed={props.filter === f} onClick={() => useQueueStore.getState().setFilter(f)}>
            {FILTER_LABELS[f]} <span className="chip-count">{props.counts[f]}</span>
          </button>
        ))}
      </div>
      <label htmlFor={searchId} className="visually-hidden">
        Search jobs
      </label>
      <input id={searchId} type="search" className="search" placeholder="Search by scene name or id" value={props.search} onChange={(e) => useQueueStore.getState().setSearch(e.target.value)} />
      <QueueSync />
    </div>
  );
}
