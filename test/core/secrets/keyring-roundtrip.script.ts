import { KeyringSecretStore } from '../../../src/core/secrets/keyring-secret-store';

/** Run inside a D-Bus session with an unlocked gnome-keyring; prints one JSON line of results. */
const store = new KeyringSecretStore({ service: 'renderdrop-test' });
const profile = `profile-${process.pid}`;
const results: Record<string, unknown> = {};
try {
  results.available = await store.isAvailable();
  results.before = await store.get(profile);
  await store.set(profile, 'RJ-roundtrip-key');
  results.afterSet = await store.get(profile);
  await store.set(profile, 'RJ-rotated-key');
  results.afterRotate = await store.get(profile);
  results.deleted = await store.delete(profile);
  results.afterDelete = await store.get(profile);
  results.deletedAgain = await store.delete(profile);
} catch (error) {
  results.error = error instanceof Error ? error.message : String(error);
}
process.stdout.write(`RESULT ${JSON.stringify(results)}\n`);
