import { useEffect, useRef, useState, type ReactNode } from 'react';
import { submitFiles } from '../lib/submit-files';

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
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
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length > 0) void submitFiles(files);
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

/** The "Add files" button: the keyboard way to pick scene files (`testId` names its file input for tests). */
export function PickFilesButton(props: { label?: string; testId?: string } = {}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="primary" onClick={() => input.current?.click()}>
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
