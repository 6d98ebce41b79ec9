import type { AppState, ConnectionState } from './app-state';
import type { JobSummary } from './job-views';
import type { NotificationView, SubmissionView, TransferView } from './submission-views';

/** How current the queue is: when it was last checked against the server, and whether it is being. */
export interface SyncView {
  /** When the list was last read from the server (ISO); null before the first time. */
  lastSyncAt: string | null;
  syncing: boolean;
  /** When the next check comes, in milliseconds from now (shorter while jobs are active). */
  nextInMs: number;
  /** Why the last check failed, in plain words; null when it worked. */
  error: string | null;
}

/** Every event the UI can receive: name -> payload. */
export interface AppEvents {
  /** Profiles, settings, Blender or the active profile changed. */
  'app.changed': AppState;
  'connection.changed': ConnectionState;
  'job.updated': JobSummary;
  /** The queue must be fetched again (another profile became active, or the list was reloaded). */
  'jobs.reset': { profileId: string | null };
  /** The queue was checked against the server (or a check began). */
  'jobs.synced': SyncView;
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
  'jobs.synced',
  'submission.updated',
  'submission.removed',
  'transfer.progress',
  'notification',
  'job.show',
];

/** One event as it travels: its name and payload, both plain data. */
export type AppEvent = { [K in EventName]: { name: K; payload: AppEvents[K] } }[EventName];
