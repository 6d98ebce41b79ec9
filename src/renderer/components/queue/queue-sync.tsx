import { useEffect, useState } from 'react';
import { useSyncStore } from '../../stores';

/** "Updated 4 s ago" and the button that checks the farm now; a spinner while a check runs. */
export function QueueSync() {
  const view = useSyncStore((s) => s.view);
  const asking = useSyncStore((s) => s.asking);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const busy = asking || view?.syncing === true;
  return (
    <div className="queue-sync">
      <span className={`sync-text ${view?.error ? 'hint-error' : ''}`} role={view?.error ? 'alert' : undefined}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {syncText(view?.lastSyncAt ?? null, view?.error ?? null, busy, now)}
      </span>
      <button type="button" onClick={() => void useSyncStore.getState().syncNow()} disabled={asking} title="Check the farm for new jobs now">
        Refresh
      </button>
    </div>
  );
}

function syncText(lastSyncAt: string | null, error: string | null, busy: boolean, now: number): string {
  if (error) return error;
  if (busy) return 'Updating…';
  if (!lastSyncAt) return '';
  const seconds = Math.max(0, Math.round((now - Date.parse(lastSyncAt)) / 1000));
  if (seconds < 5) return 'Up to date';
  if (seconds < 60) return `Updated ${seconds} s ago`;
  return `Updated ${Math.round(seconds / 60)} min ago`;
}
