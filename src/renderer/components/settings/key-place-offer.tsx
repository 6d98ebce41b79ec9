import type { KeyPlace } from '../../../shared/contract';
import { useAppStore } from '../../stores/app-store';

/** What the app says was done with a key the system keychain refused. */
export function keptWhere(place: KeyPlace): string {
  return place === 'encrypted-file'
    ? 'The system keychain refused its key, so it is kept in an encrypted file in the settings folder.'
    : 'The system keychain refused its key, so it is kept only until Renderdrop quits: enter it again next time.';
}

/** Whether this app can keep a refused key in an encrypted file (the desktop app with real encryption). */
export function useKeyFallback(): boolean {
  return useAppStore((s) => s.state?.keyFallback === 'encrypted-file');
}

/**
 * The system keychain refused a key: why, and where it may be kept instead (an encrypted file when the
 * app has one, or only until Renderdrop quits), or not at all.
 */
export function KeyPlaceOffer(props: { reason: string; fallback: boolean; decline: string; onChoose: (place: KeyPlace | null) => void }) {
  const { onChoose } = props;
  return (
    <div className="key-place-offer" role="group" aria-label="Where to keep the key">
      <p className="hint hint-error" role="alert">
        {props.reason}
      </p>
      <div className="actions">
        {props.fallback && (
          <button type="button" className="primary" onClick={() => onChoose('encrypted-file')}>
            Keep it in an encrypted file
          </button>
        )}
        <button type="button" className={props.fallback ? '' : 'primary'} onClick={() => onChoose('session')}>
          Keep it until Renderdrop quits
        </button>
        <button type="button" onClick={() => onChoose(null)}>
          {props.decline}
        </button>
      </div>
    </div>
  );
}
