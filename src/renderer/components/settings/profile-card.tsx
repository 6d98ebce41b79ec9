import { useId, useState } from 'react';
import type { AppState, ProfileView } from '../../../shared/contract';
import { command } from '../../lib';
import { CloudProfileSettings } from './cloud-profile-settings';
import { LocalProfileSettings } from './local-profile-settings';

/** One profile in Settings: the radio that makes it the active one, and its own settings below. */
export function ProfileCard(props: { profile: ProfileView; active: boolean; state: AppState }) {
  const { profile, active } = props;
  const radioId = useId();
  const [message, setMessage] = useState<string | null>(null);
  const use = () => command('profiles.use', { profileId: profile.id }, { what: `use ${profile.name}`, show: setMessage });
  return (
    <div className={`card ${active ? 'card-active' : ''}`}>
      <div className="card-title">
        <input id={radioId} type="radio" name="active-profile" checked={active} onChange={() => void use()} />
        <label htmlFor={radioId}>
          <strong>{profile.name}</strong> <span className="muted">{profile.kind === 'local' ? 'render node on this computer' : profile.baseUrl}</span>
        </label>
      </div>
      {profile.kind === 'local' && profile.id === 'this-computer' ? <LocalProfileSettings state={props.state} /> : <CloudProfileSettings profile={profile} />}
      {message && (
        <p className="hint hint-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
