import { useEffect, useRef, type RefObject } from 'react';

/**
 * Focuses the viewer when it opens and, when it closes, gives focus back to the element it was opened
 * from, or to the tile of the frame it was opened on when that element is gone.
 */
export function useViewerFocus(dialog: RefObject<HTMLDivElement | null>, frame: number): void {
  const opener = useRef<Element | null>(null);
  const openedAt = useRef(frame);
  useEffect(() => {
    opener.current = document.activeElement;
    const first = openedAt.current;
    dialog.current?.focus();
    return () => {
      const back = opener.current;
      const target = back instanceof HTMLElement && back.isConnected ? back : document.querySelector<HTMLElement>(`.frame-tile[data-frame="${first}"]`);
      target?.focus();
    };
  }, []);
}
