/** The window sizes every screen of the app is looked at in: small laptop to large monitor. */
export const SCREEN_SIZES = [
  { width: 800, height: 600 },
  { width: 1024, height: 640 },
  { width: 1440, height: 900 },
  { width: 2560, height: 1440 },
] as const;
