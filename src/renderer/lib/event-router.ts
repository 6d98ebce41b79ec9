import type { AppEvent, JobSummary } from '../../shared/contract';
import { useAppStore, useDetailStore, useNotificationsStore, useQueueStore, useSubmissionsStore, useSyncStore, useTransfersStore } from '../stores';

/**
 * Routes every back-end event to the store of its feature. Job updates are gathered and applied
 * together (at most one queue change per `schedule` tick), so bursts over ten thousand jobs stay cheap.
 */
export function createEventRouter(schedule: (flush: () => void) => void = (flush) => setTimeout(flush, 50)): (event: AppEvent) => void {
  let pending = new Map<string, JobSummary>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const jobs = [...pending.values()];
    pending = new Map();
    useQueueStore.getState().upsert(jobs);
    const detail = useDetailStore.getState();
    if (detail.jobId && jobs.some((j) => j.id === detail.jobId)) void detail.refresh();
  };
  return (event) => {
    switch (event.name) {
      case 'app.changed':
        useAppStore.getState().setState(event.payload);
        break;
      case 'connection.changed':
        useAppStore.getState().setConnection(event.payload);
        break;
      case 'jobs.reset':
        pending.clear();
        void useQueueStore.getState().load();
        break;
      case 'jobs.synced':
        useSyncStore.getState().set(event.payload);
        break;
      case 'job.updated':
        pending.set(event.payload.id, event.payload);
        if (!scheduled) {
          scheduled = true;
          schedule(flush);
        }
        break;
      case 'submission.updated':
        useSubmissionsStore.getState().upsert(event.payload);
        break;
      case 'submission.removed':
        useSubmissionsStore.getState().remove(event.payload.id);
        break;
      case 'transfer.progress':
        useTransfersStore.getState().apply(event.payload);
        break;
      case 'notification':
        useNotificationsStore.getState().push(event.payload);
        break;
      case 'job.show':
        useAppStore.getState().setView('queue');
        void useDetailStore.getState().open(event.payload.jobId);
        break;
    }
  };
}
