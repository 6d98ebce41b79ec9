import { useId, useState } from 'react';
import { command } from '../../lib/command';
import { FormResult } from '../common/form-result';

/** The form that adds a cloud profile: name, server address and key, with a test before adding. */
export function AddProfileForm() {
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
