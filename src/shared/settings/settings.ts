import { z } from 'zod';

/** Where a profile's server runs: the render node on this computer or a remote farm. */
export const PROFILE_KINDS = ['local', 'cloud'] as const;

/** A server the app can talk to. The API key lives in the OS keychain, never here. */
export const profileSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  baseUrl: z.string().url(),
  kind: z.enum(PROFILE_KINDS),
});
export type Profile = z.infer<typeof profileSchema>;

/** Everything the app and the CLI persist besides keys and the submission journal. */
export const settingsSchema = z.object({
  profiles: z.array(profileSchema),
  activeProfileId: z.string().nullable(),
  /** Folder outputs go to; null means the default (`~/Renderdrop`). */
  downloadDir: z.string().nullable(),
  autoDownload: z.boolean(),
  notifications: z.boolean(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** Settings of a fresh install. */
export const DEFAULT_SETTINGS: Settings = {
  profiles: [],
  activeProfileId: null,
  downloadDir: null,
  autoDownload: true,
  notifications: true,
};

/** The id of the profile "This computer" (the render node on this machine), shared by the CLI and the app. */
export const THIS_COMPUTER_PROFILE_ID = 'this-computer';
