import type { IpcMainInvokeEvent } from 'electron';
import { isAppUrl } from '../window';

/**
 * Whether an IPC call comes from the app itself: sent by the app window's web contents, from its top
 * frame (no iframe), while that frame shows one of the app's own pages.
 */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, appWebContentsId: number | null, appOrigin: string): boolean {
  const frame = event.senderFrame;
  if (appWebContentsId === null || frame === null) return false;
  if (event.sender.id !== appWebContentsId) return false;
  if (frame.parent !== null) return false;
  return isAppUrl(frame.url, appOrigin);
}
