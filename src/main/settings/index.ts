/** What other rooms of main use of main/settings: the room's public surface. */
export { DesktopSettings } from './desktop-settings';
