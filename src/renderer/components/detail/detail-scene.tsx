import { isNote, type SceneAnalysis } from '../../../shared/api';
import { settingValue } from '../../../shared/contract';
import { BacktickCode } from '../common/backtick-code';

/** What validation found in the scene, and the job's warnings (in the scene's own paths) and notes. */
export function DetailScene(props: { analysis: SceneAnalysis }) {
  const a = props.analysis;
  const warnings = a.warnings.filter((w) => !isNote(w));
  const notes = a.warnings.filter((w) => isNote(w));
  const range = a.frameStart === a.frameEnd ? `${a.frameStart}` : `${a.frameStart}–${a.frameEnd}${a.frameStep > 1 ? `, every ${a.frameStep}` : ''}`;
  return (
    <section aria-label="Scene">
      <h3>Scene</h3>
      <dl className="facts">
        <dt>Render engine</dt>
        <dd>{settingValue('renderEngine', a.engine)}</dd>
        <dt>Frames</dt>
        <dd>{range}</dd>
        <dt>Resolution</dt>
        <dd>
          {a.resolution[0]} × {a.resolution[1]} px at {a.resolutionPercentage} %
        </dd>
        <dt>Frame rate</dt>
        <dd>{Math.round((a.fps / (a.fpsBase || 1)) * 100) / 100} fps</dd>
        <dt>Samples</dt>
        <dd>{a.samples ?? '–'}</dd>
        <dt>Colour management</dt>
        <dd>
          {a.colorManagement.viewTransform}
          {a.colorManagement.look && a.colorManagement.look !== 'None' ? `, ${a.colorManagement.look}` : ''}
        </dd>
        <dt>Cameras</dt>
        <dd>{a.cameras.join(', ') || 'none'}</dd>
        <dt>Saved with</dt>
        <dd>Blender {a.savedWithBlender ?? 'version unknown'}</dd>
      </dl>
      {warnings.length > 0 && (
        <ul className="warnings" aria-label="Warnings">
          {warnings.map((w, i) => (
            <li key={i}>
              <BacktickCode text={w.message} /> {w.path && !w.message.includes(w.path) && <span className="path-text">{w.path}</span>}
            </li>
          ))}
        </ul>
      )}
      {notes.length > 0 && (
        <ul className="notes" aria-label="Notes">
          {notes.map((w, i) => (
            <li key={i}>
              <BacktickCode text={w.message} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
