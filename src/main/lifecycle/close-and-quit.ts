import { app, type BrowserWindow } from 'electron';
import { type Activity, isWorkActive } from '../activity';
import type { DesktopSettings } from '../settings';
import { closeAction, quitQuestion, type ShellWindow } from '../window';

/** What the close and quit rules look at. */
export interface CloseAndQuitDeps {
  /** The main window, whose close button the rules decide on. */
  mainWindow: BrowserWindow;
  window: ShellWindow;
  activity: Activity;
  settings: DesktopSettings;
  /** Stops everything the shell started; the app exits once it resolves. */
  shutdown: () => Promise<void>;
}

/**
 * The close and quit rules of the {@link closeAction} and {@link quitQuestion} policies: closing the
 * window hides it or quits the app, quitting while files upload asks first, and the app exits only
 * once the shell has shut down. Activating the app shows the window.
 */
export function applyCloseAndQuitRules(deps: CloseAndQuitDeps): void {
  const { window, activity } = deps;
  let quitting = false;
  let quitConfirmed = false;
  deps.mainWindow.on('close', (event) => {
    const action = closeAction({
      quitting,
      keepRunningInTray: deps.settings.preferences.keepRunningInTray,
      workActive: isWorkActive(activity.snapshot()),
      platform: process.platform,
    });
    if (action === 'hide') {
      event.preventDefault();
      window.live()?.hide();
    } else if (!quitting) {
      event.preventDefault();
      app.quit();
    }
  });
  app.on('activate', () => window.show());
  app.on('before-quit', (event) => {
    const question = quitConfirmed ? null : quitQuestion(activity.snapshot().uploads);
    if (!question) {
      quitting = true;
      return;
    }
    event.preventDefault();
    const box = { type: 'question' as const, message: question.message, detail: question.detail, buttons: question.buttons, defaultId: 0, cancelId: 0 };
    void window.messageBox(box).then(({ response }) => {
      if (response !== 1) return;
      quitConfirmed = true;
      app.quit();
    });
  });
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void deps.shutdown().finally(() => {
      closed = true;
      app.exit(0);
    });
  });
}
