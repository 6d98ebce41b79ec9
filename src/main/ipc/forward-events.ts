import type { WebContents } from 'electron';
import { EVENT_CHANNEL, type AppEvent } from '../../shared/contract';

/**
 * Sends every host event to the app window on the one event channel while the window lives.
 * Returns the function that stops forwarding.
 */
export function forwardEvents(subscribe: (listener: (event: AppEvent) => void) => () => void, target: () => Pick<WebContents, 'send' | 'isDestroyed'> | null): () => void {
  return subscribe((event) => {
    const contents = target();
    if (contents && !contents.isDestroyed()) contents.send(EVENT_CHANNEL, event);
  });
}
