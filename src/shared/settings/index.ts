/** What other layers use of shared/settings: the room's public surface. */
export { sameServer, trimBaseUrl } from './server-key';
export { DEFAULT_SETTINGS, type Profile, profileSchema, type Settings, settingsSchema, THIS_COMPUTER_PROFILE_ID } from './settings';
