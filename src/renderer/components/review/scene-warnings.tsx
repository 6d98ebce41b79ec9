import { isNote } from '../../../shared/api';
import type { ReviewSheet as ReviewData } from '../../../shared/contract';
import { BacktickCode } from '../common/backtick-code';

type Warning = ReviewData['warnings'][number];

function Entry(props: { warning: Warning }) {
  const w = props.warning;
  return (
    <li>
      <BacktickCode text={w.message} />
      {w.path && !w.message.includes(w.path) ? <code className="path">{w.path}</code> : null}
    </li>
  );
}

/**
 * The warnings validation gave about the scene, each with the path it names, then its notes (what
 * needs nothing done, such as scene Python the farm runs); nothing without any.
 */
export function SceneWarnings(props: { warnings: ReviewData['warnings'] }) {
  const warnings = props.warnings.filter((w) => !isNote(w));
  const notes = props.warnings.filter((w) => isNote(w));
  return (
    <>
      {warnings.length > 0 && (
        <section aria-label="Warnings" className="warnings">
          <h3>Warnings</h3>
          <ul>
            {warnings.map((w, i) => (
              <Entry key={i} warning={w} />
            ))}
          </ul>
        </section>
      )}
      {notes.length > 0 && (
        <section aria-label="Notes" className="notes">
          <h3>Notes</h3>
          <ul>
            {notes.map((w, i) => (
              <Entry key={i} warning={w} />
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
