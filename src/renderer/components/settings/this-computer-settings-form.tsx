import { useId, useState } from 'react';
import type { AppState } from '../../../shared/contract';
import { countOf } from '../../../shared/text';
import { command } from '../../lib';
import { useAppStore } from '../../stores';
import { FormResult } from '../common/form-result';

/** "This computer"'s render settings: how many renders run at once and the Blender threads of each. */
export function ThisComputerSettingsForm(props: { state: AppState }) {
  const current = props.state.settings.thisComputer;
  const ids = { renders: useId(), threads: useId() };
  const [renders, setRenders] = useState(String(current?.renders ?? 1));
  const [threads, setThreads] = useState(current?.threads === null || current === null ? 'all' : String(current.threads));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  if (!current) return null;
  const rendersValue = /^\d+$/.test(renders.trim()) ? Number(renders) : NaN;
  const rendersOk = Number.isInteger(rendersValue) && rendersValue >= 1 && rendersValue <= current.maxRenders;
  const save = async () => {
    const next = { renders: rendersValue, threads: threads === 'all' ? null : Number(threads) };
    const saved = await command('settings.update', { thisComputer: next }, { what: 'save the settings of this computer', show: (text) => setMessage({ ok: false, text }) });
    if (!saved) return;
    const threadText = next.threads === null ? `all ${current.cores} cores` : countOf(next.threads, 'thread');
    setMessage({ ok: true, text: `Saved: ${countOf(next.renders, 'render')} at once, Blender on ${threadText}. Renders that start from now on use them.` });
    void useAppStore.getState().load();
  };
  return (
    <form
      className="node-settings"
      aria-label="How this computer renders"
      onSubmit={(e) => {
        e.preventDefault();
        if (rendersOk) void save();
      }}
    >
      <h4>How this computer renders</h4>
      <div className="field">
        <label htmlFor={ids.renders}>Renders at once</label>
        <input
          id={ids.renders}
          type="number"
          min={1}
          max={current.maxRenders}
          value={renders}
          aria-invalid={!rendersOk}
          aria-describedby={`${ids.renders}-hint`}
          onChange={(e) => {
            setRenders(e.target.value);
            setMessage(null);
          }}
        />
        <p id={`${ids.renders}-hint`} className={rendersOk ? 'hint' : 'hint hint-error'}>
          {rendersOk ? 'More renders at once share the computer: each is slower.' : `A number from 1 to ${current.maxRenders}.`}
        </p>
      </div>
      <div className="field">
        <label htmlFor={ids.threads}>Blender threads per render</label>
        <select
          id={ids.threads}
          value={threads}
          onChange={(e) => {
            setThreads(e.target.value);
            setMessage(null);
          }}
        >
          <option value="all">All cores ({current.cores})</option>
          {Array.from({ length: current.cores }, (_, i) => i + 1).map((n) => (
            <option key={n} value={String(n)}>
              {countOf(n, 'thread')}
            </option>
          ))}
        </select>
      </div>
      <div className="actions">
        <button type="submit" disabled={!rendersOk}>
          Save render settings
        </button>
      </div>
      <FormResult result={message} />
    </form>
  );
}
