import { useId, useState } from 'react';
import type { KeyPlace } from '../../../shared/contract';
import { call } from '../../bridge';
import { command } from '../../lib';
import { FormResult } from '../common/form-result';
import { KeyPlaceOffer, keptWhere, useKeyFallback } from './key-place-offer';

/** What the artist typed into the add form, and what adding and testing it came to. */
function useAddProfile() {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [refusedKey, setRefusedKey] = useState<string | null>(null);
  const failed = { show: (text: string) => setMessage({ ok: false, text }) };
  const add = async (keyPlace?: KeyPlace) => {
    setRefusedKey(null);
    const result = await call('profiles.add', { name, baseUrl, ...(apiKey.trim() ? { apiKey } : {}), ...(keyPlace ? { keyPlace } : {}) });
    if (!result.ok) {
      if (result.error.code === 'key-not-stored') setRefusedKey(result.error.message);
      else failed.show(result.error.message);
      return;
    }
    setName('');
    setBaseUrl('');
    setApiKey('');
    setMessage({ ok: true, text: `Added "${result.value.name}".${keyPlace ? ` ${keptWhere(keyPlace)}` : ''} Choose it above to use it.` });
  };
  const keep = (place: KeyPlace | null) => {
    if (place) void add(place);
    else {
      setRefusedKey(null);
      setMessage({ ok: false, text: 'The profile was not added, and its key was not kept anywhere.' });
    }
  };
  const test = async () => {
    const tested = await command('profiles.testConnection', { baseUrl, ...(apiKey.trim() ? { apiKey } : {}) }, { what: 'test the connection', ...failed });
    if (tested) setMessage({ ok: tested.ok, text: tested.message });
  };
  const edited = (set: (value: string) => void) => (value: string) => {
    set(value);
    setMessage(null);
    setRefusedKey(null);
  };
  return { name, baseUrl, apiKey, message, refusedKey, add, keep, test, setName, setBaseUrl: edited(setBaseUrl), setApiKey: edited(setApiKey) };
}

/** The form that adds a cloud profile: name, server address and key, with a test before adding. */
export function AddProfileForm() {
  const ids = { name: useId(), url: useId(), key: useId() };
  const { name, baseUrl, apiKey, message, refusedKey, add, keep, test, setName, setBaseUrl, setApiKey } = useAddProfile();
  const keyFallback = useKeyFallback();
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
        <input id={ids.url} type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://farm.example.com" />
      </div>
      <div className="field">
        <label htmlFor={ids.key}>API key</label>
        <input id={ids.key} type="password" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
      </div>
      <div className="actions">
        <button type="button" onClick={() => void test()} disabled={baseUrl.trim() === ''}>
          Test connection
        </button>
        <button type="submit" className="primary" disabled={name.trim() === '' || baseUrl.trim() === ''}>
          Add profile
        </button>
      </div>
      {refusedKey ? <KeyPlaceOffer reason={refusedKey} fallback={keyFallback} decline="Don't add it" onChoose={keep} /> : <FormResult result={message} />}
    </form>
  );
}
