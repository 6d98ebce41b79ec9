/** What other rooms of main use of main/window: the room's public surface. */
export { isAppUrl } from './app-origin';
export { closeAction, quitQuestion } from './close-policy';
export { ShellWindow } from './shell-window';
