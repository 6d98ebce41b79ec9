import type { AppHost } from '../../host/host';
import type { AppEvent } from '../../shared/contract';
import type { Activity } from './activity';

/** What keeps the activity current. */
export interface FollowHostDeps {
  host: Pick<AppHost, 'subscribe' | 'handlers'>;
  activity: Activity;
  /** Also told every host event (native notifications). */
  notify: (event: AppEvent) => void;
  /** Called when the activity may have changed what the tray shows. */
  changed: () => void;
}

/**
 * Keeps the activity current from the host's events, starting from the app state and the active
 * jobs (asked again whenever the job list is reset, e.g. on a profile switch). Answers how to stop.
 */
export async function followHost({ host, activity, notify, changed }: FollowHostDeps): Promise<() => void> {
  const seedActiveJobs = () =>
    void host.handlers['jobs.list']({ filter: 'active' })
      .then((page) => activity.seed(page.jobs))
      .catch(() => undefined)
      .finally(changed);

  const stop = host.subscribe((event) => {
    activity.apply(event);
    notify(event);
    if (event.name === 'jobs.reset') seedActiveJobs();
    if (event.name !== 'transfer.progress') changed();
  });
  activity.apply({ name: 'app.changed', payload: await host.handlers['app.getState']({}) });
  seedActiveJobs();
  return stop;
}
