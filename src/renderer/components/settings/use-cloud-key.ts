import { useEffect, useState } from 'react';
import type { ConnectionTest, KeyPlace, ProfileView } from '../../../shared/contract';
import { call } from '../../bridge';
import { command } from '../../lib';

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
  /** Why the system keychain refused the key just saved, while the artist chooses where else to keep it. */
  refused: string | null;
  /** What was done with the key the keychain refused, once the artist chose. */
  kept: string | null;
  type(value: string): void;
  save(): Promise<void>;
  /** Keeps the refused key where the artist chose, or nowhere (null). */
  keep(place: KeyPlace | null): Promise<void>;
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
  const [refused, setRefused] = useState<string | null>(null);
  const [kept, setKept] = useState<string | null>(null);
  const show = { show: setError };
  const typed = key.trim();
  const keyTyped = typed.length >= MIN_KEY_LENGTH;
  const rejectedTyped = test !== null && test.key === typed && typed !== '' && isRejected(test);
  useEffect(() => setTest(null), [profile.baseUrl]);
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    setRefused(null);
    setKept(null);
    await work();
  };
  const save = async (keyPlace?: KeyPlace) => {
    if (rejectedTyped) {
      setTest(null);
      setError('The server rejected this key when you tested it, so it was not saved. Check the key and enter it again.');
      return;
    }
    const result = await call('profiles.setKey', { profileId: profile.id, apiKey: key, ...(keyPlace ? { keyPlace } : {}) });
    if (!result.ok) {
      if (result.error.code === 'key-not-stored') setRefused(result.error.message);
      else setError(result.error.message);
      return;
    }
    setKey('');
    setTest(null);
    if (keyPlace) setKept(KEPT[keyPlace]);
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
    refused,
    kept,
    type(value) {
      setKey(value);
      setTest(null);
      setError(null);
      setRefused(null);
      setKept(null);
    },
    save: () => run(save),
    keep: (place) => run(place ? () => save(place) : async () => setError('The key was not saved.')),
    testConnection: () => run(testConnection),
    forget: () => run(() => command('profiles.clearKey', { profileId: profile.id }, { what: 'forget the key', ...show })),
    remove: () => run(() => command('profiles.remove', { profileId: profile.id }, { what: `remove ${profile.name}`, ...show })),
  };
}

/** What Settings says after a key the keychain refused was kept elsewhere. */
const KEPT: Record<KeyPlace, string> = {
  'encrypted-file': 'Key saved in an encrypted file in the settings folder.',
  file: 'Key saved in keys.json in the settings folder, readable only by your user account.',
  session: 'Key kept only until Renderdrop quits: enter it again next time.',
};
