import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useRef, useState } from 'react';
import { JOB_FILTERS, type JobFilter } from '../../shared/contract/job-views';
import { selectVisibleQueue } from '../stores/queue-selectors';
import { useQueueStore } from '../stores/queue-store';
import { QueueRow } from './queue-row';

const FILTER_LABELS: Record<JobFilter, string> = {
  all: 'All',
  active: 'Active',
  review: 'Needs review',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
};

const ROW_HEIGHT = 56;

/** The queue: filter chips with counts, search, and a virtualised list of every job. */
export function QueueView() {
  const version = useQueueStore((s) => s.version);
  const byId = useQueueStore((s) => s.byId);
  const filter = useQueueStore((s) => s.filter);
  const search = useQueueStore((s) => s.search);
  const selectedId = useQueueStore((s) => s.selectedId);
  const loaded = useQueueStore((s) => s.loaded);
  const { jobs, counts } = selectVisibleQueue({ byId, version, filter, search });
  const scroller = useRef<HTMLDivElement>(null);
  const searchId = useId();
  const now = useNow(jobs.some((j) => j.startedAt !== null && j.endedAt === null));
  const virtualizer = useVirtualizer({
    count: jobs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => jobs[index]!.id,
  });

  return (
    <section className="queue" aria-label="Queue">
      <div className="queue-tools">
        <div className="chips" role="group" aria-label="Filter by status">
          {JOB_FILTERS.map((f) => (
            <button key={f} type="button" className="chip" aria-pressed={filter === f} onClick={() => useQueueStore.getState().setFilter(f)}>
              {FILTER_LABELS[f]} <span className="chip-count">{counts[f]}</span>
            </button>
          ))}
        </div>
        <label htmlFor={searchId} className="visually-hidden">
          Search jobs
        </label>
        <input id={searchId} type="search" className="search" placeholder="Search by scene name or id" value={search} onChange={(e) => useQueueStore.getState().setSearch(e.target.value)} />
      </div>
      {loaded && jobs.length === 0 ? (
        <p className="empty" role="status">
          {counts.all === 0 && search === '' ? 'No jobs yet. Drop a .blend or .zip file anywhere on this window, or use Add files.' : 'No job matches this filter and search.'}
        </p>
      ) : (
        <div className="queue-scroll" ref={scroller} data-testid="queue-scroll">
          <div role="list" aria-label="Render queue" aria-rowcount={jobs.length} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const job = jobs[item.index]!;
              return (
                <QueueRow
                  key={item.key}
                  job={job}
                  selected={job.id === selectedId}
                  now={now}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                />
              );
            })}
          </div>
        </div>
      )}
    </section>
  );
}

/** The current time, ticking every second while something is running (for "time spent"). */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
