import { useEffect, useState } from 'react';
import type { ConnectionTest, ProfileView } from '../../../shared/contract';
import { command } from '../../lib/command';

/** The shortest text taken for a key to test or save. */
const MIN_KEY_LENGTH = 8;

/** A cloud profile's key field and what was done with it. */
export interface CloudKey {
  key: string;
  /** Whether the typed text is long enough to be tested or saved as a key. */
  keyTyped: boolean;
  /** The last connection test, with the key it tested (empty for the saved one). */
  test: (ConnectionTest & { key: string }) | null;
  error: string | null;
  type(value: string): void;
  save(): Promise<void>;
  testConnection(): Promise<void>;
  forget(): Promise<void>;
  remove(): Promise<void>;
}

/** Whether a connection test failed because the server refused the key. */
function isRejected(test: ConnectionTest): boolean {
  return !test.ok && (test.status === 401 || test.status === 403);
}

/**
 * The key of a cloud profile: typed, tested (the typed key, or the saved one when none is typed), saved
 * unless the server rejected it when tested, forgotten; and removing the profile.
 */
export function useCloudKey(profile: ProfileView): CloudKey {
  const [key, setKey] = useState('');
  const [test, setTest] = useState<(ConnectionTest & { key: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const show = { show: setError };
  const typed = key.trim();
  const keyTyped = typed.length >= MIN_KEY_LENGTH;
  const rejectedTyped = test !== null && test.key === typed && typed !== '' && isRejected(test);
  useEffect(() => setTest(null), [profile.baseUrl]);
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    await work();
  };
  const save = async () => {
    if (rejectedTyped) {
      setTest(null);
      setError('The server rejected this key when you tested it, so it was not saved. Check the key and enter it again.');
      return;
    }
    if (await command('profiles.setKey', { profileId: profile.id, apiKey: key }, { what: 'save the key', ...show })) {
      setKey('');
      setTest(null);
    }
  };
  const testConnection = async () => {
    const tested = await command('profiles.testConnection', { profileId: profile.id, ...(keyTyped ? { apiKey: typed } : {}) }, { what: 'test the connection', ...show });
    if (tested) setTest({ ...tested, key: keyTyped ? typed : '' });
  };
  return {
    key,
    keyTyped,
    test,
    error,
    type(value) {
      setKey(value);
      setTest(null);
      setError(null);
    },
    save: () => run(save),
    testConnection: () => run(testConnection),
    forget: () => run(() => command('profiles.clearKey', { profileId: profile.id }, { what: 'forget the key', ...show })),
    remove: () => run(() => command('profiles.remove', { profileId: profile.id }, { what: `remove ${profile.name}`, ...show })),
  };
}
