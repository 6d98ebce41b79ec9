/** What a key does in the file browser's list. */
export type FileListAction = { type: 'move'; index: number } | { type: 'open' } | { type: 'toggle' } | { type: 'up' } | null;

/** The keys the action looks at. */
export interface ListKey {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

const PAGE = 10;

/**
 * What a key does in a list of `count` entries with `active` the highlighted one: arrows, Home, End and
 * Page Up/Down move; Enter opens a folder or picks a scene; Space selects a scene among several;
 * Backspace and Alt+Up go to the folder above. Null: the key is not the list's.
 */
export function fileListAction(event: ListKey, active: number, count: number): FileListAction {
  if (event.ctrlKey || event.metaKey) return null;
  if (event.key === 'Backspace' || (event.altKey && event.key === 'ArrowUp')) return { type: 'up' };
  if (event.altKey) return null;
  const last = count - 1;
  const move = (index: number): FileListAction => (count === 0 ? null : { type: 'move', index: Math.min(last, Math.max(0, index)) });
  switch (event.key) {
    case 'ArrowDown':
      return move(active + 1);
    case 'ArrowUp':
      return move(active - 1);
    case 'Home':
      return move(0);
    case 'End':
      return move(last);
    case 'PageDown':
      return move(active + PAGE);
    case 'PageUp':
      return move(active - PAGE);
    case 'Enter':
      return count === 0 ? null : { type: 'open' };
    case ' ':
      return count === 0 ? null : { type: 'toggle' };
    default:
      return null;
  }
}
