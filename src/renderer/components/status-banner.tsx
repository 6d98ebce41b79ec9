import { useEffect, useState } from 'react';
import type { AppState, ConnectionState } from '../../shared/contract';
import { useAppStore } from '../stores';

/** Seconds left until a retry announced at `since`. */
function useCountdown(connection: ConnectionState): number | null {
  const [now, setNow] = useState(() => Date.now());
  const timed = connection.state === 'unreachable' || connection.state === 'rate-limited';
  useEffect(() => {
    if (!timed) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [timed]);
  if (!timed) return null;
  const left = connection.retryInSeconds - Math.floor((now - Date.parse(connection.since)) / 1000);
  return Math.max(0, left);
}

/** Explains a state the artist must know about: first run, unreachable, key rejected, rate limited, Blender missing. */
export function StatusBanner(props: { state: AppState }) {
  const { connection } = props.state;
  const left = useCountdown(connection);
  const toSettings = () => useAppStore.getState().setView('settings');
  switch (connection.state) {
    case 'ok':
    case 'starting':
      return props.state.firstRun ? (
        <div className="banner banner-info" role="status" data-state="first-run">
          <strong>Welcome to Renderdrop.</strong> Drop a .blend or .zip file anywhere on this window to render it on{' '}
          {props.state.profiles.find((p) => p.id === props.state.activeProfileId)?.name ?? 'this computer'}; the frames land in {props.state.settings.downloadDir}.
        </div>
      ) : null;
    case 'unreachable':
      return (
        <div className="banner banner-warn" role="alert" data-state="unreachable">
          <strong>The server cannot be reached.</strong> {left !== null && left > 0 ? `Trying again in ${left} s.` : 'Trying again now.'} <span className="muted">{connection.message}</span>
        </div>
      );
    case 'rate-limited':
      return (
        <div className="banner banner-warn" role="status" data-state="rate-limited">
          <strong>The server asked Renderdrop to slow down.</strong> {left !== null && left > 0 ? `Asking again in ${left} s.` : 'Asking again now.'}
        </div>
      );
    case 'key-rejected':
      return (
        <div className="banner banner-error" role="alert" data-state="key-rejected">
          <strong>API key rejected.</strong> The server refused this profile's key.{' '}
          <button type="button" className="link" onClick={toSettings}>
            Go to Settings
          </button>{' '}
          to enter a valid key.
        </div>
      );
    case 'no-key':
      return (
        <div className="banner banner-error" role="alert" data-state="no-key">
          <strong>No API key.</strong> {connection.message}{' '}
          <button type="button" className="link" onClick={toSettings}>
            Go to Settings
          </button>
        </div>
      );
    case 'blender-missing':
      return (
        <div className="banner banner-error" role="alert" data-state="blender-missing">
          <strong>Blender is missing on this computer.</strong> {connection.message}{' '}
          <button type="button" className="link" onClick={toSettings}>
            Open Settings
          </button>
        </div>
      );
    case 'no-profile':
      return (
        <div className="banner banner-error" role="alert" data-state="no-profile">
          <strong>No profile is active.</strong>{' '}
          <button type="button" className="link" onClick={toSettings}>
            Choose one in Settings
          </button>
        </div>
      );
  }
}
