import type { Activity } from '../activity';
import type { ShellWindow } from '../window';
import { NativeNotifier } from './native-notifications';
import { jobClickAction } from './notification-policy';

/** What the desktop's notifications need. */
export interface DesktopNotifierDeps {
  activity: Activity;
  window: ShellWindow;
  /** The notifications' icon. */
  icon: string;
  openPath: (path: string) => Promise<void>;
}

/**
 * Native notifications of finished and failed renders. A click on one opens the job's download
 * folder when it has one (else the job in the window); a click on any other shows the window.
 */
export function desktopNotifier({ activity, window, icon, openPath }: DesktopNotifierDeps): NativeNotifier {
  return new NativeNotifier({
    isFocused: () => window.live()?.isFocused() ?? false,
    job: (jobId) => activity.job(jobId),
    icon,
    onClick: (target) => {
      if (target.kind === 'window') return window.show();
      const action = jobClickAction(target.jobId, activity.job(target.jobId));
      if (action.kind === 'folder') void openPath(action.dir).catch(() => window.showJob(target.jobId));
      else window.showJob(action.jobId);
    },
  });
}
