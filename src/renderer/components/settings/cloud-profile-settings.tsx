import { useId } from 'react';
import type { ProfileView } from '../../../shared/contract';
import { KeyPlaceOffer, useKeyFallback } from './key-place-offer';
import { useCloudKey } from './use-cloud-key';

const KEY_PLACES: Record<ProfileView['keyStorage'], string> = {
  keychain: 'stored in the system keychain',
  'encrypted-file': 'stored encrypted in the settings folder',
  file: 'stored in keys.json in the settings folder (only your user account can read it)',
  memory: 'kept in memory until Renderdrop stops',
  env: 'taken from RENDERDROP_API_KEY',
  none: 'not set',
  unreadable: 'the system keychain refuses to give it',
};

/** A cloud profile in Settings: where its key is kept, a field to set or replace it, test, forget, remove. */
export function CloudProfileSettings(props: { profile: ProfileView }) {
  const { profile } = props;
  const keyId = useId();
  const cloud = useCloudKey(profile);
  const keyFallback = useKeyFallback();
  return (
    <div className="card-body">
      <p>
        API key: <span className={profile.hasKey ? '' : 'hint-error'}>{KEY_PLACES[profile.keyStorage]}</span>
      </p>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void cloud.save();
        }}
      >
        <label htmlFor={keyId}>{profile.hasKey ? 'Replace the API key' : 'API key'}</label>
        <input id={keyId} type="password" autoComplete="off" value={cloud.key} onChange={(e) => cloud.type(e.target.value)} />
        <button type="submit" disabled={!cloud.keyTyped}>
          Save key
        </button>
      </form>
      <div className="actions">
        <button type="button" onClick={() => void cloud.testConnection()}>
          {cloud.keyTyped ? 'Test this key' : 'Test connection'}
        </button>
        {profile.hasKey && profile.keyStorage !== 'env' && (
          <button type="button" onClick={() => void cloud.forget()}>
            Forget key
          </button>
        )}
        <button type="button" onClick={() => void cloud.remove()}>
          Remove profile
        </button>
      </div>
      {cloud.test && (
        <p className={cloud.test.ok ? 'hint hint-ok' : 'hint hint-error'} role="status">
          {cloud.test.message}
        </p>
      )}
      {cloud.refused && <KeyPlaceOffer reason={cloud.refused} fallback={keyFallback} decline="Don't save it" onChoose={(place) => void cloud.keep(place)} />}
      {cloud.kept && (
        <p className="hint hint-ok" role="status">
          {cloud.kept}
        </p>
      )}
      {cloud.error && (
        <p className="hint hint-error" role="alert">
          {cloud.error}
        </p>
      )}
    </div>
  );
}
