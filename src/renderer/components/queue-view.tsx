import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { foldSearch, JOB_FILTERS, type JobFilter } from '../../shared/contract';
import { queueItems, type QueueItem } from '../lib/queue-items';
import { selectVisibleQueue } from '../stores/queue-selectors';
import { useQueueStore } from '../stores/queue-store';
import { useSubmissionsStore } from '../stores/submissions-store';
import { useSyncStore } from '../stores/sync-store';
import { EmptyQueue } from './empty-queue';
import { openJob, QueueRow, type RowPlacement } from './queue-row';
import { QueueSync } from './queue-sync';
import { DroppedRow, SubmissionRow } from './submission-row';

const FILTER_LABELS: Record<JobFilter, string> = {
  all: 'All',
  active: 'Active',
  review: 'Needs review',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
};

const ROW_HEIGHT = 60;

/**
 * The queue: filter chips with counts, search, how current it is, and one virtualised list of every
 * file on its way and every job. Arrow keys move between rows, Enter opens a job's details.
 */
export function QueueView() {
  const version = useQueueStore((s) => s.version);
  const byId = useQueueStore((s) => s.byId);
  const filter = useQueueStore((s) => s.filter);
  const search = useQueueStore((s) => s.search);
  const selectedId = useQueueStore((s) => s.selectedId);
  const loaded = useQueueStore((s) => s.loaded);
  const dropped = useSubmissionsStore((s) => s.dropped);
  const submissionsById = useSubmissionsStore((s) => s.byId);
  const { jobs, counts } = selectVisibleQueue({ byId, version, filter, search });
  const folded = foldSearch(search);
  const showOnTheWay = filter === 'all' || filter === 'active';
  const submissions = Object.values(submissionsById).filter((s) => foldSearch(s.fileName).includes(folded));
  const items = queueItems(showOnTheWay ? dropped.filter((d) => foldSearch(d.name).includes(folded)) : [], showOnTheWay ? submissions : [], jobs);
  const scroller = useRef<HTMLDivElement>(null);
  const searchId = useId();
  const [focusIndex, setFocusIndex] = useState(0);
  const now = useNow(jobs.some((j) => j.startedAt !== null && j.endedAt === null));
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => items[index]!.key,
  });
  useSyncOnReturn();

  const tabbable = Math.min(focusIndex, Math.max(0, items.length - 1));
  const focusRow = (index: number) => {
    setFocusIndex(index);
    virtualizer.scrollToIndex(index, { align: 'auto' });
    let tries = 0;
    const attempt = () => {
      const row = scroller.current?.querySelector<HTMLElement>(`[data-row-index="${index}"]`);
      if (row) row.focus();
      else if (tries++ < 10) requestAnimationFrame(attempt);
    };
    requestAnimationFrame(attempt);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target;
    if (!(target instanceof HTMLElement) || target.dataset.rowIndex === undefined) return;
    const index = Number(target.dataset.rowIndex);
    const last = items.length - 1;
    const next = e.key === 'ArrowDown' ? Math.min(last, index + 1) : e.key === 'ArrowUp' ? Math.max(0, index - 1) : e.key === 'Home' ? 0 : e.key === 'End' ? last : null;
    if (next !== null) {
      e.preventDefault();
      focusRow(next);
    } else if (e.key === 'Enter' || e.key === ' ') {
      const item = items[index];
      if (!item) return;
      e.preventDefault();
      openItem(item);
    }
  };

  const empty = loaded && items.length === 0;
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
        <QueueSync />
      </div>
      {empty && counts.all === 0 && search === '' ? (
        <EmptyQueue />
      ) : empty ? (
        <p className="empty" role="status">
          No job matches this filter and search.
        </p>
      ) : (
        <div className="queue-scroll" ref={scroller} data-testid="queue-scroll">
          <div role="list" aria-label="Render queue" className="queue-list" style={{ height: virtualizer.getTotalSize() }} onKeyDown={onKeyDown}>
            {virtualizer.getVirtualItems().map((virtual) => {
              const item = items[virtual.index]!;
              const place: RowPlacement = {
                index: virtual.index,
                tabbable: virtual.index === tabbable,
                measure: virtualizer.measureElement,
                style: { position: 'absolute', top: 0, left: 0, right: 0, minHeight: ROW_HEIGHT, transform: `translateY(${virtual.start}px)` },
              };
              if (item.kind === 'job') return <QueueRow key={item.key} job={item.job} submission={item.submission} selected={item.job.id === selectedId} now={now} place={place} />;
              if (item.kind === 'submission') return <SubmissionRow key={item.key} submission={item.submission} place={place} />;
              return <DroppedRow key={item.key} file={item.file} place={place} />;
            })}
          </div>
        </div>
      )}
    </section>
  );
}

function openItem(item: QueueItem): void {
  if (item.kind === 'job') openJob(item.job.id);
  else if (item.kind === 'submission' && item.submission.phase === 'review') {
    useSubmissionsStore.getState().openReview(item.submission.id);
  }
}

/** Checks the queue against the server when the window comes back into view. */
function useSyncOnReturn(): void {
  useEffect(() => {
    const sync = () => void useSyncStore.getState().syncNow();
    const visible = () => {
      if (document.visibilityState === 'visible') sync();
    };
    window.addEventListener('focus', sync);
    document.addEventListener('visibilitychange', visible);
    return () => {
      window.removeEventListener('focus', sync);
      document.removeEventListener('visibilitychange', visible);
    };
  }, []);
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
