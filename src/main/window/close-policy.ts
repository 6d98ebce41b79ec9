/** What closing the window does. */
export type CloseAction = 'hide' | 'close';

/** What the close decision depends on. */
export interface CloseContext {
  /** The app is quitting (menu, tray, Cmd+Q): the window really closes. */
  quitting: boolean;
  /** The setting "keep running in the tray while work is active". */
  keepRunningInTray: boolean;
  /** Uploads, renders or downloads are under way. */
  workActive: boolean;
  platform: NodeJS.Platform;
}

/**
 * Closing the window hides it (the app keeps working in the tray) while work is active and the
 * setting allows it; on macOS it always hides, as apps there keep running until quit. Otherwise the
 * window closes and, with it, the app.
 */
export function closeAction(context: CloseContext): CloseAction {
  if (context.quitting) return 'close';
  if (context.platform === 'darwin') return 'hide';
  return context.keepRunningInTray && context.workActive ? 'hide' : 'close';
}

/** The question asked before quitting with uploads in flight, or null when quitting needs no question. */
export function quitQuestion(uploadsInFlight: number): { message: string; detail: string; buttons: [string, string] } | null {
  if (uploadsInFlight <= 0) return null;
  const what = uploadsInFlight === 1 ? 'An upload is' : `${uploadsInFlight} uploads are`;
  return {
    message: `${what} still in progress. Quit Renderdrop anyway?`,
    detail: 'Renders already on the farm keep going. Unfinished uploads stop now and start again the next time you open Renderdrop.',
    buttons: ['Keep running', 'Quit anyway'],
  };
}
