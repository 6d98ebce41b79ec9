import { useEffect, useId, useState } from 'react';
import type { AppState, ConnectionTest, DoctorView, ProfileView, Theme, CallRequest } from '../../shared/contract';
import { command } from '../lib/command';
import { useAppStore } from '../stores/app-store';
import { RenderWorkers } from './render-workers';
import { ThisComputerSettings } from './this-computer-settings';
import { FormResult } from './form-result';

/** Whether a connection test failed because the server refused the key. */
function isRejected(test: ConnectionTest): boolean {
  return !test.ok && (test.status === 401 || test.status === 403);
}

const KEY_PLACES: Record<ProfileView['keyStorage'], string> = {
  keychain: 'stored in the system keychain',
  'encrypted-file': 'stored encrypted in the settings folder (no system keychain)',
  memory: 'kept in memory until Renderdrop stops',
  env: 'taken from RENDERDROP_API_KEY',
  none: 'not set',
};

/** Settings: profiles (This computer with the doctor's report, cloud profiles with key and test), downloads, notifications, theme. */
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
        <AddProfile />
      </section>
      <DownloadSettings state={state} />
    </section>
  );
}

function ProfileCard(props: { profile: ProfileView; active: boolean; state: AppState }) {
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
      {profile.kind === 'local' && profile.id === 'this-computer' ? <LocalProfile state={props.state} /> : <CloudProfile profile={profile} />}
      {message && (
        <p className="hint hint-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

function LocalProfile(props: { state: AppState }) {
  const { blender } = props.state;
  const [doctor, setDoctor] = useState<DoctorView | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const check = async () => {
    setRunning(true);
    setError(null);
    const report = await command('app.runDoctor', {}, { what: 'check Blender', show: setError });
    setRunning(false);
    if (report) setDoctor(report);
  };
  return (
    <div className="card-body">
      {blender.found ? (
        <p>
          Blender {blender.version} at <code className="path">{blender.path}</code>
        </p>
      ) : (
        <p className="hint hint-error">{blender.hint}</p>
      )}
      <button type="button" onClick={() => void check()} disabled={running}>
        {running ? 'Checking Blender…' : 'Check Blender'}
      </button>
      {error && <p className="hint hint-error">{error}</p>}
      <ThisComputerSettings state={props.state} />
      <RenderWorkers />
      {doctor && (
        <section aria-label="Doctor report" className="doctor">
          <p>{doctor.ok ? 'This computer can render with Renderdrop.' : 'This computer cannot render yet.'}</p>
          {doctor.blenderVersion && (
            <dl className="facts">
              <dt>Blender</dt>
              <dd>
                {doctor.blenderVersion} <code className="path">{doctor.blenderPath}</code>
              </dd>
              <dt>Cycles devices</dt>
              <dd>{doctor.cyclesDevices.join(', ')}</dd>
              <dt>Denoisers</dt>
              <dd>{doctor.denoisers.join(', ') || 'none'}</dd>
              <dt>EEVEE</dt>
              <dd>{doctor.eevee === 'usable' ? 'usable' : doctor.eevee === 'not-usable' ? 'not usable here' : 'not checked'}</dd>
            </dl>
          )}
          {doctor.problems.length > 0 && (
            <ul className="warnings">
              {doctor.problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}

function CloudProfile(props: { profile: ProfileView }) {
  const { profile } = props;
  const keyId = useId();
  const [key, setKey] = useState('');
  const [test, setTest] = useState<(ConnectionTest & { key: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const show = { show: setError };
  const typed = key.trim();
  const rejectedTyped = test !== null && test.key === typed && typed !== '' && isRejected(test);
  useEffect(() => setTest(null), [profile.baseUrl]);
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    await work();
  };
  return (
    <div className="card-body">
      <p>
        API key: <span className={profile.hasKey ? '' : 'hint-error'}>{KEY_PLACES[profile.keyStorage]}</span>
      </p>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            if (rejectedTyped) {
              setTest(null);
              setError('The server rejected this key when you tested it, so it was not saved. Check the key and enter it again.');
              return;
            }
            if (await command('profiles.setKey', { profileId: profile.id, apiKey: key }, { what: 'save the key', ...show })) {
              setKey('');
              setTest(null);
            }
          });
        }}
      >
        <label htmlFor={keyId}>{profile.hasKey ? 'Replace the API key' : 'API key'}</label>
        <input
          id={keyId}
          type="password"
          autoComplete="off"
          value={key}
          onChange={(e) => {
            setKey(e.target.value);
            setTest(null);
            setError(null);
          }}
        />
        <button type="submit" disabled={typed.length < 8}>
          Save key
        </button>
      </form>
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            void run(async () => {
              const tested = await command('profiles.testConnection', { profileId: profile.id, ...(typed.length >= 8 ? { apiKey: typed } : {}) }, { what: 'test the connection', ...show });
              if (tested) setTest({ ...tested, key: typed.length >= 8 ? typed : '' });
            })
          }
        >
          {typed.length >= 8 ? 'Test this key' : 'Test connection'}
        </button>
        {profile.hasKey && profile.keyStorage !== 'env' && (
          <button type="button" onClick={() => void run(() => command('profiles.clearKey', { profileId: profile.id }, { what: 'forget the key', ...show }))}>
            Forget key
          </button>
        )}
        <button type="button" onClick={() => void run(() => command('profiles.remove', { profileId: profile.id }, { what: `remove ${profile.name}`, ...show }))}>
          Remove profile
        </button>
      </div>
      {test && (
        <p className={test.ok ? 'hint hint-ok' : 'hint hint-error'} role="status">
          {test.message}
        </p>
      )}
      {error && (
        <p className="hint hint-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function AddProfile() {
  const ids = { name: useId(), url: useId(), key: useId() };
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const failed = { show: (text: string) => setMessage({ ok: false, text }) };
  const add = async () => {
    const added = await command('profiles.add', { name, baseUrl, ...(apiKey.trim() ? { apiKey } : {}) }, { what: 'add the profile', ...failed });
    if (!added) return;
    setName('');
    setBaseUrl('');
    setApiKey('');
    setMessage({ ok: true, text: `Added "${added.name}". Choose it above to use it.` });
  };
  const test = async () => {
    const tested = await command('profiles.testConnection', { baseUrl, ...(apiKey.trim() ? { apiKey } : {}) }, { what: 'test the connection', ...failed });
    if (tested) setMessage({ ok: tested.ok, text: tested.message });
  };
  return (
    <form
      className="card add-profile"
      aria-label="Add a cloud profile"
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <h4>Add a cloud profile</h4>
      <div className="field">
        <label htmlFor={ids.name}>Name</label>
        <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} placeholder="Studio farm" />
      </div>
      <div className="field">
        <label htmlFor={ids.url}>Server address</label>
        <input
          id={ids.url}
          type="url"
          value={baseUrl}
          onChange={(e) => {
            setBaseUrl(e.target.value);
            setMessage(null);
          }}
          placeholder="https://farm.example.com"
        />
      </div>
      <div className="field">
        <label htmlFor={ids.key}>API key</label>
        <input
          id={ids.key}
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => {
            setApiKey(e.target.value);
            setMessage(null);
          }}
        />
      </div>
      <div className="actions">
        <button type="button" onClick={() => void test()} disabled={baseUrl.trim() === ''}>
          Test connection
        </button>
        <button type="submit" className="primary" disabled={name.trim() === '' || baseUrl.trim() === ''}>
          Add profile
        </button>
      </div>
      <FormResult result={message} />
    </form>
  );
}

function DownloadSettings(props: { state: AppState }) {
  const { settings } = props.state;
  const ids = { dir: useId(), auto: useId(), notify: useId(), theme: useId() };
  const [dir, setDir] = useState(settings.downloadDir);
  const [error, setError] = useState<string | null>(null);
  const update = async (patch: CallRequest<'settings.update'>) => {
    if (!(await command('settings.update', patch, { what: 'save the settings', show: setError }))) return;
    setError(null);
    void useAppStore.getState().load();
  };
  return (
    <section aria-labelledby="downloads-title">
      <h3 id="downloads-title">Downloads and display</h3>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void update({ downloadDir: dir.trim() === '' ? null : dir });
        }}
      >
        <label htmlFor={ids.dir}>Download folder</label>
        <input id={ids.dir} value={dir} onChange={(e) => setDir(e.target.value)} />
        <button type="submit">Save folder</button>
      </form>
      <div className="check">
        <input id={ids.auto} type="checkbox" checked={settings.autoDownload} onChange={(e) => void update({ autoDownload: e.target.checked })} />
        <label htmlFor={ids.auto}>Download outputs automatically when a render completes</label>
      </div>
      <div className="check">
        <input id={ids.notify} type="checkbox" checked={settings.notifications} onChange={(e) => void update({ notifications: e.target.checked })} />
        <label htmlFor={ids.notify}>Notify me when a render completes or fails</label>
      </div>
      <div className="field">
        <label htmlFor={ids.theme}>Theme</label>
        <select id={ids.theme} value={settings.theme} onChange={(e) => void update({ theme: e.target.value as Theme })}>
          <option value="dark">Dark</option>
          <option value="light">Light</option>
          <option value="system">Follow the system</option>
        </select>
      </div>
      {error && (
        <p className="hint hint-error" role="alert">
          {error}
        </p>
      )}
      <p className="muted">Settings folder: {props.state.configDir}</p>
    </section>
  );
}
