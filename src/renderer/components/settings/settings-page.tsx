import type { AppState } from '../../../shared/contract';
import { AddProfileForm } from './add-profile-form';
import { BlenderAddonSettings } from './blender-addon-settings';
import { DownloadSettings } from './download-settings';
import { ProfileCard } from './profile-card';

/** Settings: profiles (This computer with the doctor's report, cloud profiles with key and test), downloads, notifications, theme, the Blender add-on. */
export function SettingsPage(props: { state: AppState }) {
  const { state } = props;
  return (
    <section className="settings" aria-label="Settings">
      <h2>Settings</h2>
      <section aria-labelledby="profiles-title">
        <h3 id="profiles-title">Profiles</h3>
        {state.keyStoreNote && (
          <p className="hint hint-error" data-testid="key-store-note">
            {state.keyStoreNote}
          </p>
        )}
        <fieldset className="profiles">
          <legend>Active profile</legend>
          {state.profiles.map((p) => (
            <ProfileCard key={p.id} profile={p} active={p.id === state.activeProfileId} state={state} />
          ))}
        </fieldset>
        <AddProfileForm />
      </section>
      <DownloadSettings state={state} />
      <BlenderAddonSettings />
    </section>
  );
}
