import { Notification } from 'electron';
import type { AppEvent, JobSummary, NotificationView } from '../../shared/contract';
import { NotificationPolicy, type FailedRender, type FinishedRender, type NativeNote, type NoteTarget } from './notification-policy';

/** A host notification read as a finished or failed render, or null for anything else. */
export function renderOutcome(view: NotificationView, job: JobSummary | undefined): { completed: FinishedRender } | { failed: FailedRender } | null {
  if (!view.jobId) return null;
  const fileName = job?.fileName ?? (view.message.split(':')[0] || view.jobId);
  if (view.level === 'success') return { completed: { jobId: view.jobId, fileName, frames: job ? Math.max(job.completedFrames, job.totalFrames) : 0 } };
  if (view.level === 'error') return { failed: { jobId: view.jobId, fileName, reason: job?.failure ?? view.message.slice(fileName.length + 1).trim(), step: job?.failedStep ?? null } };
  return null;
}

/** What the notifier needs from the shell. */
export interface NativeNotifierOptions {
  isFocused(): boolean;
  /** The latest summary of a job (scene name, frames, reason, download folder). */
  job(jobId: string): JobSummary | undefined;
  /** A notification was clicked. */
  onClick(target: NoteTarget): void;
  icon?: string;
  schedule?: (run: () => void, ms: number) => () => void;
}

/**
 * Native notifications for the host's completion and failure notifications (which the host only
 * sends when the setting is on), shown through the {@link NotificationPolicy}.
 */
export class NativeNotifier {
  readonly #policy: NotificationPolicy;
  readonly #options: NativeNotifierOptions;
  readonly #shown = new Set<Notification>();

  constructor(options: NativeNotifierOptions) {
    this.#options = options;
    this.#policy = new NotificationPolicy({
      isFocused: options.isFocused,
      show: (note) => this.#show(note),
      schedule:
        options.schedule ??
        ((run, ms) => {
          const timer = setTimeout(run, ms);
          return () => clearTimeout(timer);
        }),
    });
  }

  /** Looks at one host event. */
  handle(event: AppEvent): void {
    if (event.name !== 'notification') return;
    const outcome = renderOutcome(event.payload, event.payload.jobId ? this.#options.job(event.payload.jobId) : undefined);
    if (!outcome) return;
    if ('completed' in outcome) this.#policy.completed(outcome.completed);
    else this.#policy.failed(outcome.failed);
  }

  dispose(): void {
    this.#policy.dispose();
    for (const n of this.#shown) n.close();
    this.#shown.clear();
  }

  #show(note: NativeNote): void {
    if (!Notification.isSupported()) return;
    const notification = new Notification({
      title: note.title,
      body: note.body,
      urgency: note.urgent ? 'critical' : 'normal',
      ...(this.#options.icon ? { icon: this.#options.icon } : {}),
    });
    this.#shown.add(notification);
    notification.on('click', () => this.#options.onClick(note.target));
    notification.on('close', () => this.#shown.delete(notification));
    notification.show();
  }
}
