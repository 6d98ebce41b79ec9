import type { Virtualizer } from '@tanstack/react-virtual';
import { useState, type KeyboardEvent, type RefObject } from 'react';
import type { QueueItem } from '../../lib';
import { useSubmissionsStore } from '../../stores';
import { openJob } from './queue-row';

/** The queue list's keyboard: which row takes Tab, and the keys that move between rows and open one. */
export interface RowKeys {
  /** The index of the one row in the tab order. */
  tabbable: number;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
}

/**
 * Arrow keys, Home and End move focus between the rows of the virtual list (scrolling the row into
 * view first); Enter or Space opens a job's details or a scene's review.
 */
export function useRowKeys(items: QueueItem[], virtualizer: Virtualizer<HTMLDivElement, Element>, scroller: RefObject<HTMLDivElement | null>): RowKeys {
  const [focusIndex, setFocusIndex] = useState(0);
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
  return { tabbable: Math.min(focusIndex, Math.max(0, items.length - 1)), onKeyDown };
}

function openItem(item: QueueItem): void {
  if (item.kind === 'job') openJob(item.job.id);
  else if (item.kind === 'submission' && item.submission.phase === 'review') {
    useSubmissionsStore.getState().openReview(item.submission.id);
  }
}
