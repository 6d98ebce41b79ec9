import { useCallback, useEffect, useState } from 'react';
import type { AddonView, BlenderAddonView } from '../../../shared/contract';
import { call } from '../../bridge';
import { blenderAddonRow, command } from '../../lib';

/** What the artist asked of one Blender. */
type Action = 'install' | 'uninstall';

/** One Blender: its version, where it is, the add-on's state and the buttons that change it. */
function BlenderRow(props: { blender: BlenderAddonView; busy: Action | null; act: (kind: Action, blender: BlenderAddonView) => void }) {
  const { blender, busy, act } = props;
  const row = blenderAddonRow(blender);
  return (
    <li className="card addon-blender" aria-label={`Blender ${blender.version}`}>
      <div className="addon-blender-name">
        <strong>Blender {blender.version}</strong>
        <span className="muted addon-blender-path">{blender.path}</span>
      </div>
      <p className="addon-blender-state" aria-live="polite">
        {busy === 'install' ? 'Installing… (Blender turns the add-on on, which takes a moment)' : busy === 'uninstall' ? 'Removing…' : row.status}
      </p>
      {(row.install || row.removable) && (
        <div className="addon-blender-actions">
          {row.install && (
            <button type="button" disabled={busy !== null} onClick={() => act('install', blender)}>
              {row.install}
            </button>
          )}
          {row.removable && (
            <button type="button" disabled={busy !== null} aria-label={`Remove from Blender ${blender.series}`} onClick={() => act('uninstall', blender)}>
              Remove
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * Settings > Blender add-on: every Blender found on this computer, with "Install for Blender 4.2" or
 * "Installed — Remove" for each. Looking for Blenders takes a moment, so it happens when the section
 * is shown and when asked again.
 */
export function BlenderAddonSettings() {
  const [view, setView] = useState<AddonView | null>(null);
  const [looking, setLooking] = useState(true);
  const [busy, setBusy] = useState<{ path: string; kind: Action } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const look = useCallback(async () => {
    setLooking(true);
    const result = await call('addon.blenders', {});
    setLooking(false);
    if (result.ok) setView(result.value);
    else setError(result.error.message);
  }, []);
  useEffect(() => {
    void look();
  }, [look]);
  const act = (kind: Action, blender: BlenderAddonView) => {
    setBusy({ path: blender.path, kind });
    setError(null);
    const what = kind === 'install' ? `install the add-on for Blender ${blender.series}` : `remove the add-on from Blender ${blender.series}`;
    void command(`addon.${kind}`, { blender: blender.path }, { what, show: setError })
      .then((done) => (done ? look() : undefined))
      .finally(() => setBusy(null));
  };
  const blenders = view?.blenders ?? [];
  return (
    <section aria-labelledby="addon-title" className="addon-settings">
      <h3 id="addon-title">Blender add-on</h3>
      <p className="muted">
        Send the scene you are working on straight from Blender: the add-on adds a Renderdrop panel to Render Properties and “Render on the farm…” to the Render
        menu. Blender picks it up the next time it starts.
      </p>
      {looking && !view && <p role="status">Looking for Blender on this computer…</p>}
      {view && blenders.length === 0 && <p>No Blender was found on this computer. Install Blender 3.3 or newer, then look again.</p>}
      {blenders.length > 0 && (
        <ul className="addon-blenders" aria-label="Blenders on this computer">
          {blenders.map((blender) => (
            <BlenderRow key={blender.path} blender={blender} busy={busy?.path === blender.path ? busy.kind : null} act={act} />
          ))}
        </ul>
      )}
      {view?.problem && <p className="hint hint-error">{view.problem}</p>}
      {error && (
        <p className="hint hint-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" disabled={looking || busy !== null} onClick={() => void look()}>
        {looking && view ? 'Looking…' : 'Look again'}
      </button>
    </section>
  );
}
