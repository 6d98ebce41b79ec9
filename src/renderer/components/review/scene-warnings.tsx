import type { ReviewSheet as ReviewData } from '../../../shared/contract';

/** The warnings validation gave about the scene, each with the path it names; nothing without any. */
export function SceneWarnings(props: { warnings: ReviewData['warnings'] }) {
  if (props.warnings.length === 0) return null;
  return (
    <section aria-label="Warnings" className="warnings">
      <h3>Warnings</h3>
      <ul>
        {props.warnings.map((w, i) => (
          <li key={i}>
            {w.message}
            {w.path && !w.message.includes(w.path) ? <code className="path">{w.path}</code> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
