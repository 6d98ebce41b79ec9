import type { SettingsStore } from '../../core/settings';
import type { Profile } from '../../shared/settings';

/** A profile by name (any case) or id, or null. */
export function findProfile(store: SettingsStore, nameOrId: string): Profile | null {
  const { profiles } = store.get();
  return profiles.find((p) => p.name.toLowerCase() === nameOrId.trim().toLowerCase()) ?? profiles.find((p) => p.id === nameOrId) ?? null;
}

/** Whether a server address points at this computer (the kind of profile it makes). */
export function isLoopbackUrl(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
