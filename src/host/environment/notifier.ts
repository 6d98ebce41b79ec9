import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/util';
import type { NotificationView } from '../../shared/contract';
import type { HostEvents } from './host-events';

/** Tells the artist something in the app, when notifications are on. */
export type Notify = (level: NotificationView['level'], title: string, message: string, jobId: string | null) => void;

/** A Notify that emits the app's notification event while `enabled()` says so. */
export function notifier(events: HostEvents, clock: Clock, enabled: () => boolean): Notify {
  return (level, title, message, jobId) => {
    if (!enabled()) return;
    events.emit('notification', { id: randomUUID(), level, title, message, jobId, at: new Date(clock.now()).toISOString() });
  };
}
