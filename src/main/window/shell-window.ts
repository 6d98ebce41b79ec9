import { dialog, type BrowserWindow, type MessageBoxOptions, type MessageBoxReturnValue } from 'electron';
import { EVENT_CHANNEL, type AppEvent } from '../../shared/contract';

/**
 * The app's one window, as the rest of the shell reaches it: null once destroyed (or before it is
 * made), shown and focused on request, and the parent of the shell's message boxes.
 */
export class ShellWindow {
  #window: BrowserWindow | null = null;

  /** Takes the window the shell made. */
  attach(window: BrowserWindow): void {
    this.#window = window;
  }

  /** The window while it exists. */
  live(): BrowserWindow | null {
    return this.#window && !this.#window.isDestroyed() ? this.#window : null;
  }

  /** Brings the window to the front, restoring it when minimized. */
  show(): void {
    const current = this.live();
    if (!current) return;
    if (current.isMinimized()) current.restore();
    current.show();
    current.focus();
  }

  /** Brings the window to the front and tells the UI to open a job. */
  showJob(jobId: string): void {
    this.show();
    const event: AppEvent = { name: 'job.show', payload: { jobId } };
    this.live()?.webContents.send(EVENT_CHANNEL, event);
  }

  /** A message box over the window, or on its own when there is no window. */
  messageBox(box: MessageBoxOptions): Promise<MessageBoxReturnValue> {
    const parent = this.live();
    return parent ? dialog.showMessageBox(parent, box) : dialog.showMessageBox(box);
  }
}
