import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { QueueItem } from '../../lib';
import { BulkBar } from './bulk-bar';
import { EmptyQueue } from './empty-queue';
import { QueueRow, type RowPlacement } from './queue-row';
import { QueueTools } from './queue-tools';
import { DroppedRow, SubmissionRow } from './submission-row';
import { useNow } from './use-now';
import { useQueueItems } from './use-queue-items';
import { useRowKeys } from './use-row-keys';
import { useSyncOnReturn } from './use-sync-on-return';

const ROW_HEIGHT = 60;

/**
 * The queue: filter chips with counts, search, how current it is, and one virtualised list of every
 * file on its way and every job. Arrow keys move between rows, Enter opens a job's details.
 */
export function QueueView() {
  const { items, jobs, counts, filter, search, selectedId, checked, loaded } = useQueueItems();
  const scroller = useRef<HTMLDivElement>(null);
  const now = useNow(jobs.some((j) => j.renderingSince !== null && j.endedAt === null));
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => items[index]!.key,
  });
  const keys = useRowKeys(items, virtualizer, scroller);
  useSyncOnReturn();

  const empty = loaded && items.length === 0;
  const placeOf = (virtual: VirtualItem): RowPlacement => ({
    index: virtual.index,
    tabbable: virtual.index === keys.tabbable,
    measure: virtualizer.measureElement,
    style: { position: 'absolute', top: 0, left: 0, right: 0, minHeight: ROW_HEIGHT, transform: `translateY(${virtual.start}px)` },
  });
  return (
    <section className="queue" aria-label="Queue">
      <QueueTools filter={filter} search={search} counts={counts} />
      <BulkBar shown={jobs} />
      {empty && counts.all === 0 && search === '' ? (
        <EmptyQueue />
      ) : empty ? (
        <p className="empty" role="status">
          No job matches this filter and search.
        </p>
      ) : (
        <div className="queue-scroll" ref={scroller} data-testid="queue-scroll">
          <div role="list" aria-label="Render queue" className="queue-list" style={{ height: virtualizer.getTotalSize() }} onKeyDown={keys.onKeyDown}>
            {virtualizer.getVirtualItems().map((virtual) => itemRow(items[virtual.index]!, placeOf(virtual), { selectedId, checked, now }))}
          </div>
        </div>
      )}
    </section>
  );
}

/** The row of one queue item: a job (maybe one run of a scene), a submission on its way, or a file just dropped. */
function itemRow(item: QueueItem, place: RowPlacement, shown: { selectedId: string | null; checked: ReadonlySet<string>; now: number }) {
  if (item.kind === 'job') {
    return (
      <QueueRow
        key={item.key}
        job={item.job}
        submission={item.submission}
        selected={item.job.id === shown.selectedId}
        checked={shown.checked.has(item.job.id)}
        run={item.run}
        now={shown.now}
        place={place}
      />
    );
  }
  if (item.kind === 'submission') return <SubmissionRow key={item.key} submission={item.submission} place={place} />;
  return <DroppedRow key={item.key} file={item.file} place={place} />;
}
