import type { KeyPlace } from '../../../shared/contract';
import { useAppStore } from '../../stores';

/** What the app says was done with a key the system keychain refused. */
export function keptWhere(place: KeyPlace): string {
  if (place === 'encrypted-file') return 'The system keychain refused its key, so it is kept in an encrypted file in the settings folder.';
  if (place === 'file') return 'The system keychain refused its key, so it is kept in keys.json in the settings folder, readable only by your user account.';
  return 'The system keychain refused its key, so it is kept only until Renderdrop quits: enter it again next time.';
}

/** Where else this app can keep a refused key: an encrypted file (the desktop app with real encryption), the key file (browser mode), or nowhere. */
export function useKeyFallback(): 'encrypted-file' | 'file' | null {
  return useAppStore((s) => s.state?.keyFallback ?? null);
}

/** What keeping a key in the key file means, said where the choice is offered. */
const KEY_FILE_SENTENCE = 'A file keeps the key across restarts, and the renderdrop command reads it too, but it is not encrypted: it is protected only by your user account, so anyone who can read your files (or a backup of them) can read it.';

/**
 * The system keychain refused a key: why, and where it may be kept instead (an encrypted file when the
 * app has one, or only until Renderdrop quits), or not at all.
 */
export function KeyPlaceOffer(props: { reason: string; fallback: 'encrypted-file' | 'file' | null; decline: string; onChoose: (place: KeyPlace | null) => void }) {
  const { onChoose, fallback } = props;
  return (
    <div className="key-place-offer" role="group" aria-label="Where to keep the key">
      <p className="hint hint-error" role="alert">
        {props.reason}
      </p>
      {fallback === 'file' && <p className="hint">{KEY_FILE_SENTENCE}</p>}
      <div className="actions">
        {fallback === 'encrypted-file' && (
          <button type="button" className="primary" onClick={() => onChoose('encrypted-file')}>
            Keep it in an encrypted file
          </button>
        )}
        {fallback === 'file' && (
          <button type="button" className="primary" onClick={() => onChoose('file')}>
            Keep it in a file only I can read
          </button>
        )}
        <button type="button" className={fallback ? '' : 'primary'} onClick={() => onChoose('session')}>
          Keep it until Renderdrop quits
        </button>
        <button type="button" onClick={() => onChoose(null)}>
          {props.decline}
        </button>
      </div>
    </div>
  );
}
