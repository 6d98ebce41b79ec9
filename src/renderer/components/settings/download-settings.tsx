import { useId, useState } from 'react';
import type { AppState, CallRequest, Theme } from '../../../shared/contract';
import { command } from '../../lib';
import { useAppStore, useFileBrowserStore } from '../../stores';

/** Downloads and display: the download folder, automatic downloads, notifications and the theme. */
export function DownloadSettings(props: { state: AppState }) {
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
        <button
          type="button"
          onClick={() =>
            useFileBrowserStore.getState().show({
              ...(dir.trim() !== '' ? { start: dir.trim() } : {}),
              chooseFolder: {
                title: 'Choose the download folder',
                onChoose: (path) => {
                  setDir(path);
                  void update({ downloadDir: path });
                },
              },
            })
          }
        >
          Browse…
        </button>
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
