import type { AppState, ConnectionState } from './app-state';
import type { JobSummary } from './job-views';
import type { NotificationView, SubmissionView, TransferView } from './submission-views';

/** Every event the UI can receive: name -> payload. */
export interface AppEvents {
  /** Profiles, settings, Blender or the active profile changed. */
  'app.changed': AppState;
  'connection.changed': ConnectionState;
  'job.updated': JobSummary;
  /** The queue must be fetched again (another profile became active, or the list was reloaded). */
  'jobs.reset': { profileId: string | null };
  'submission.updated': SubmissionView;
  'submission.removed': { id: string };
  'transfer.progress': TransferView;
  notification: NotificationView;
  /** Desktop app: bring this job forward (its native notification was clicked). */
  'job.show': { jobId: string };
}

/** The name of an event. */
export type EventName = keyof AppEvents;

/** Every event name. */
export const EVENT_NAMES: readonly EventName[] = [
  'app.changed',
  'connection.changed',
  'job.updated',
  'jobs.reset',
  'submission.updated',
  'submission.removed',
  'transfer.progress',
  'notification',
  'job.show',
];

/** One event as it travels: its name and payload, both plain data. */
export type AppEvent = { [K in EventName]: { name: K; payload: AppEvents[K] } }[EventName];
