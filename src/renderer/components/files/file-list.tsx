import { useEffect, useId, useRef } from 'react';
import type { FileEntryView, FolderView } from '../../../shared/contract';
import { formatBytes } from '../../../shared/text';
import { fileListAction } from '../../lib';

const KIND_WORDS: Record<FileEntryView['kind'], string> = { folder: 'Folder', blend: 'Blender scene', zip: 'Zipped project', other: '' };
const KIND_MARK: Record<FileEntryView['kind'], string> = { folder: '', blend: '◆', zip: '▣', other: '·' };

/** A small folder drawn in the text colour (no emoji: not every system font has one). */
function FolderMark() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path d="M1.5 3.5h4.5l1.5 1.5h7v8h-13z" fill="currentColor" opacity="0.85" />
    </svg>
  );
}

/** Whether Renderdrop opens this entry as a scene. */
export function isScene(entry: FileEntryView): boolean {
  return entry.kind === 'blend' || entry.kind === 'zip';
}

function modifiedText(iso: string | null): string {
  if (iso === null) return '';
  return new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** What the file list does when an entry is opened, picked, selected or the folder left. */
export interface FileListProps {
  folder: FolderView;
  active: number;
  selected: ReadonlySet<string>;
  onActive(index: number): void;
  onOpen(entry: FileEntryView): void;
  onToggle(entry: FileEntryView): void;
  onUp(): void;
}

/**
 * The entries of one folder as a listbox that keeps focus while the highlight moves (arrows, Home, End,
 * Page Up/Down); Enter opens a folder or picks a scene, Space selects scenes, Backspace and Alt+Up go
 * up. A click opens a folder or selects a scene.
 */
export function FileList(props: FileListProps) {
  const { folder, active, selected } = props;
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const entries = folder.entries;
  const current = entries[active];
  const name = folder.crumbs[folder.crumbs.length - 1]?.name ?? 'Home';

  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active, folder]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const action = fileListAction(e, active, entries.length);
    if (!action) return;
    e.preventDefault();
    if (action.type === 'move') props.onActive(action.index);
    else if (action.type === 'up') props.onUp();
    else if (current && action.type === 'open') props.onOpen(current);
    else if (current && action.type === 'toggle' && isScene(current)) props.onToggle(current);
  };

  return (
    <>
      {entries.length === 0 && <p className="muted file-list-empty">This folder is empty.</p>}
      <div
        ref={list}
        className="file-list"
        role="listbox"
        aria-label={`Files in ${name}`}
        aria-multiselectable="true"
        tabIndex={0}
        aria-activedescendant={current ? `${base}-${active}` : undefined}
        onKeyDown={onKeyDown}
        data-testid="file-list"
      >
        {entries.map((entry, index) => (
          <div
            key={entry.path}
            id={`${base}-${index}`}
            data-index={index}
            role="option"
            aria-selected={selected.has(entry.path)}
            aria-disabled={entry.kind === 'other' ? true : undefined}
            className={`file-entry kind-${entry.kind} ${index === active ? 'active' : ''}`}
            onClick={() => {
              props.onActive(index);
              if (entry.kind === 'folder') props.onOpen(entry);
              else if (isScene(entry)) props.onToggle(entry);
              list.current?.focus();
            }}
            onDoubleClick={() => isScene(entry) && props.onOpen(entry)}
          >
            <span className="file-mark" aria-hidden="true">
              {selected.has(entry.path) ? '✓' : entry.kind === 'folder' ? <FolderMark /> : KIND_MARK[entry.kind]}
            </span>
            <span className="file-name">{entry.name}</span>
            <span className="file-kind muted">{KIND_WORDS[entry.kind]}</span>
            <span className="file-size muted">{entry.size === null ? '' : formatBytes(entry.size)}</span>
            <span className="file-modified muted">{modifiedText(entry.modified)}</span>
          </div>
        ))}
      </div>
    </>
  );
}
