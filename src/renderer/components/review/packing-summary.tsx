import type { PackingView, SubmissionView } from '../../../shared/contract';
import { command } from '../../lib/command';
import { formatBytes } from '../../../shared/text';

/** "14 files, 320 MB travel with the scene", or nothing when the scene needs no other file. */
export function PackingLine(props: { packing: PackingView | null }) {
  const packing = props.packing;
  if (packing === null || packing.files <= 1) return null;
  return (
    <p className="muted packing-line">
      {packing.files} files, {formatBytes(packing.bytes)} travel with the scene
    </p>
  );
}

/**
 * A scene held before upload because files it uses are missing: which, by the artist's path and why,
 * and the choice to send it without them or to cancel.
 */
export function MissingFilesChoice(props: { submission: SubmissionView }) {
  const s = props.submission;
  const missing = s.packing?.missing ?? [];
  const count = missing.length === 1 ? '1 file it uses is missing' : `${missing.length} files it uses are missing`;
  return (
    <div className="missing-files">
      <p className="hint">{count}; the farm would render without {missing.length === 1 ? 'it' : 'them'}.</p>
      <ul className="missing-list" aria-label={`Missing files of ${s.fileName}`}>
        {missing.map((file, index) => (
          <li key={`${file.path}-${index}`}>
            <span className="missing-path">{file.path}</span>
            <span className="muted">
              {file.kind} “{file.owner}”: {file.reason}
            </span>
          </li>
        ))}
      </ul>
      <div className="actions">
        <button type="button" className="primary" onClick={() => void command('submissions.continue', { submissionId: s.id }, { what: `send ${s.fileName}` })}>
          Continue anyway
        </button>
        <button type="button" onClick={() => void command('submissions.discard', { submissionId: s.id }, { what: `cancel ${s.fileName}` })}>
          Cancel
        </button>
      </div>
    </div>
  );
}
