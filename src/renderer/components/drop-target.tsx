import { useEffect, useRef, useState, type ReactNode } from 'react';
import { filePicker, pathForFile } from '../bridge';
import { submitFiles } from '../lib';
import { useFileBrowserStore } from '../stores';

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/** The files and the folders of a drop (a folder arrives as an entry whose File holds no bytes). */
function splitDrop(transfer: DataTransfer | null): { files: File[]; folders: File[] } {
  const files: File[] = [];
  const folders: File[] = [];
  for (const item of Array.from(transfer?.items ?? [])) {
    if (item.kind !== 'file') continue;
    const file = item.getAsFile();
    if (!file) continue;
    if (item.webkitGetAsEntry()?.isDirectory) folders.push(file);
    else files.push(file);
  }
  if (files.length === 0 && folders.length === 0) files.push(...Array.from(transfer?.files ?? []));
  return { files, folders };
}

/**
 * A dropped folder opens the file browser: at that folder when its path is known (the desktop app), else
 * (the browser gives no path) where the artist last was, saying to find the folder there.
 */
function openDroppedFolder(folders: File[]): void {
  const [first] = folders;
  const start = first ? pathForFile(first) : null;
  const names = folders.map((f) => `“${f.name}”`).join(', ');
  const note = start
    ? `Choose the scenes of ${names} to render.`
    : `A folder dropped in the browser arrives without its files. Open ${names} here to choose the scenes in it: Renderdrop reads them from this computer with the files they use.`;
  useFileBrowserStore.getState().show({ note, ...(start ? { start } : {}) });
}

/** Makes the whole window a drop target for scene files, with a visible overlay while dragging. */
export function DropTarget(props: { children: ReactNode }) {
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  useEffect(() => {
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current++;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    };
    const overHandler = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setOver(false);
      const { files, folders } = splitDrop(e.dataTransfer);
      if (files.length > 0) void submitFiles(files);
      if (folders.length > 0) openDroppedFolder(folders);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overHandler);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overHandler);
      window.removeEventListener('drop', drop);
    };
  }, []);
  return (
    <>
      {props.children}
      {over && (
        <div className="drop-overlay" aria-hidden="true">
          <p>Drop .blend or .zip files to render them</p>
        </div>
      )}
    </>
  );
}

/**
 * The "Add files" button: the keyboard way to pick scene files, with the system's dialog in the desktop
 * app and Renderdrop's file browser in browser mode (`testId` names the file input for tests).
 */
export function PickFilesButton(props: { label?: string; testId?: string } = {}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="primary" onClick={() => (filePicker() === 'native' ? input.current?.click() : useFileBrowserStore.getState().show())}>
        {props.label ?? 'Add files…'}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept=".blend,.zip"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Scene files to render"
        data-testid={props.testId}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length > 0) void submitFiles(files);
        }}
      />
    </>
  );
}
