import { useAppStore } from '../../stores';
import { PickFilesButton } from '../drop-target';

/** The first screen's heading: "No jobs yet" only when the list could be read. */
export function emptyQueueHeading(connection: string | undefined): string {
  if (connection === undefined || connection === 'ok') return 'No jobs yet';
  if (connection === 'starting') return 'Getting ready';
  return 'Jobs will show here once the farm answers';
}

/** The first screen: a drop zone in the list's place, saying what to drop and what happens next. */
export function EmptyQueue() {
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
        <PickFilesButton label="Choose scene files…" />
      </div>
    </div>
  );
}
