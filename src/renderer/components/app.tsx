import { useEffect } from 'react';
import { subscribe } from '../bridge';
import { applyTheme, createEventRouter } from '../lib';
import { useAppStore, useQueueStore, useSubmissionsStore } from '../stores';
import { ConfirmDialog } from './common/confirm-dialog';
import { DropTarget, PickFilesButton } from './drop-target';
import { FileBrowser } from './files/file-browser-dialog';
import { JobDetailPanel } from './detail/job-detail-panel';
import { Notifications } from './notifications';
import { ProfilePicker } from './profile-picker';
import { PriorityDialog } from './queue/priority-dialog';
import { QueueView } from './queue/queue-view';
import { ReviewSheetDialog } from './review/review-sheet-dialog';
import { SettingsPage } from './settings/settings-page';
import { StatusBanner } from './status-banner';
import { WorkersPage } from './workers/workers-page';

/** The whole window: header, state banner, the queue (files on their way included), the farm's workers or settings, detail panel, review sheet. */
export function App() {
  const state = useAppStore((s) => s.state);
  const error = useAppStore((s) => s.error);
  const view = useAppStore((s) => s.view);
  const reviewId = useSubmissionsStore((s) => s.reviewId);
  const theme = state?.settings.theme ?? 'dark';

  useEffect(() => {
    const unsubscribe = subscribe(createEventRouter());
    void useAppStore.getState().load();
    void useQueueStore.getState().load();
    void useSubmissionsStore.getState().load();
    return unsubscribe;
  }, []);
  useEffect(() => applyTheme(theme), [theme]);

  if (!state) {
    return (
      <main className="loading" aria-busy={error === null}>
        <h1>Renderdrop</h1>
        <p role={error ? 'alert' : 'status'}>{error ?? 'Starting…'}</p>
      </main>
    );
  }
  return (
    <DropTarget>
      <div className="app">
        <header className="topbar">
          <h1>Renderdrop</h1>
          <nav aria-label="Pages">
            <button type="button" className="tab" aria-current={view === 'queue' ? 'page' : undefined} onClick={() => useAppStore.getState().setView('queue')}>
              Queue
            </button>
            <button type="button" className="tab" aria-current={view === 'workers' ? 'page' : undefined} onClick={() => useAppStore.getState().setView('workers')}>
              Workers
            </button>
            <button type="button" className="tab" aria-current={view === 'settings' ? 'page' : undefined} onClick={() => useAppStore.getState().setView('settings')}>
              Settings
            </button>
          </nav>
          <ProfilePicker state={state} />
          <PickFilesButton testId="file-input" />
        </header>
        <StatusBanner state={state} />
        <main className={`content ${view === 'queue' ? 'content-queue' : ''}`} tabIndex={-1}>
          {view === 'queue' ? (
            <>
              <div className="queue-column">
                <QueueView />
              </div>
              <JobDetailPanel />
            </>
          ) : view === 'workers' ? (
            <WorkersPage />
          ) : (
            <SettingsPage state={state} />
          )}
        </main>
        {reviewId && (
          <div className="backdrop">
            <ReviewSheetDialog key={reviewId} submissionId={reviewId} />
          </div>
        )}
        <FileBrowser />
        <ConfirmDialog />
        <PriorityDialog />
        <Notifications />
      </div>
    </DropTarget>
  );
}
