import { useId, useState } from 'react';
import type { AppState } from '../../shared/contract';
import { command } from '../lib';
import { useAppStore } from '../stores';

/** The header's profile switch: which farm (or this computer) the queue shows and files go to. */
export function ProfilePicker(props: { state: AppState }) {
  const { state } = props;
  const id = useId();
  const [busy, setBusy] = useState(false);
  const use = async (profileId: string) => {
    setBusy(true);
    const next = await command('profiles.use', { profileId }, { what: 'switch the profile' });
    setBusy(false);
    if (next) useAppStore.getState().setState(next);
  };
  if (state.profiles.length === 0) return <span className="profile-picker muted">No profile</span>;
  return (
    <div className="profile-picker">
      <label htmlFor={id}>Render on</label>
      <select id={id} value={state.activeProfileId ?? ''} disabled={busy} aria-busy={busy} onChange={(e) => void use(e.target.value)}>
        {state.activeProfileId === null && <option value="">Choose a profile</option>}
        {state.profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </div>
  );
}
