/**
 * Where API keys are kept, one per profile. Implementations never log or persist a key elsewhere.
 */
export interface SecretStore {
  get(profileId: string): Promise<string | null>;
  set(profileId: string, key: string): Promise<void>;
  /** True when a key was removed. */
  delete(profileId: string): Promise<boolean>;
  /** Whether the store can be used on this machine (a keychain is reachable). */
  isAvailable(): Promise<boolean>;
}

/** The keychain service name every Renderdrop key is stored under. */
export const SECRET_SERVICE = 'renderdrop';
