import { useRef } from 'react';
import { submitFiles } from '../lib/submit-files';
import { useAppStore } from '../stores/app-store';

/** The first screen's heading: "No jobs yet" only when the list could be read. */
export function emptyQueueHeading(connection: string | undefined): string {
  if (connection === undefined || connection === 'ok') return 'No jobs yet';
  if (connection === 'starting') return 'Getting ready';
  return 'Jobs will show here once the farm answers';
}

/** The first screen: a drop zone in the list's place, saying what to drop and what happens next. */
export function EmptyQueue() {
  const input = useRef<HTMLInputElement>(null);
  const connection = useAppStore((s) => s.state?.connection.state);
  return (
    <div className="empty-drop" data-testid="empty-drop-zone">
      <div className="empty-drop-box">
        <h2>{emptyQueueHeading(connection)}</h2>
        <p>Drop Blender scenes (.blend) or zipped projects (.zip) here, anywhere on this window.</p>
        <p className="muted">
          Renderdrop packs the files each scene uses, sends it to the farm and shows what the farm found before anything renders. The frames land in your download
          folder.
        </p>
        <button type="button" className="primary" onClick={() => input.current?.click()}>
          Choose scene files…
        </button>
        <input
          ref={input}
          type="file"
          multiple
          accept=".blend,.zip"
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Scene files to render"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            if (files.length > 0) void submitFiles(files);
          }}
        />
      </div>
    </div>
  );
}
