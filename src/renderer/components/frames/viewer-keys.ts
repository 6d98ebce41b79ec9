import type { KeyboardEvent, RefObject } from 'react';

const FOCUSABLE = 'button:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The frame viewer's keys: Escape closes it, the left and right arrows step through the frames, and Tab
 * keeps focus inside the viewer.
 */
export function viewerKeyHandler(dialog: RefObject<HTMLDivElement | null>, moves: { close(): void; go(step: number): void }): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      moves.close();
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      moves.go(1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      moves.go(-1);
    } else if (e.key === 'Tab') {
      keepTabInside(dialog.current, e);
    }
  };
}

/** Moves focus from the last focusable element to the first on Tab, and back on Shift+Tab. */
function keepTabInside(dialog: HTMLDivElement | null, e: KeyboardEvent): void {
  const items = [...(dialog?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && (document.activeElement === first || document.activeElement === dialog)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
