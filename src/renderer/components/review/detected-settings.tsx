import { formatName, settingValue, videoLabel, type ReviewSheet as ReviewData } from '../../../shared/contract';
import { countOf } from '../../../shared/text';

/** What validation detected in the scene, or that the server did not describe it. */
export function DetectedSettings(props: { analysis: ReviewData['analysis'] }) {
  const a = props.analysis;
  if (!a) return <p className="hint">The server did not describe the scene; the render uses the scene's own settings unless you change them.</p>;
  return (
    <dl className="facts" aria-label="Detected settings">
      <dt>Engine</dt>
      <dd>{settingValue('renderEngine', a.engine)}</dd>
      <dt>Frame range</dt>
      <dd data-testid="detected-frame-range">
        {a.frameStart}–{a.frameEnd}
        {a.frameStep > 1 ? ` every ${a.frameStep}` : ''} ({countOf(a.totalFrames, 'frame')}, {a.fps} fps)
      </dd>
      <dt>Resolution</dt>
      <dd>
        {a.resolution[0]} × {a.resolution[1]} at {a.resolutionPercentage} %
      </dd>
      <dt>Samples</dt>
      <dd>{a.samples ?? '–'}</dd>
      <dt>Camera</dt>
      <dd>{a.activeCamera ?? (a.rendersSequencer === true ? 'none needed (video sequencer)' : 'none')}</dd>
      <dt>View layer</dt>
      <dd>{a.activeViewLayer ?? '–'}</dd>
      <dt>Output</dt>
      <dd data-testid="detected-output">{outputWords(a)}</dd>
      <dt>Colour</dt>
      <dd>
        {a.colorManagement.viewTransform}
        {a.colorManagement.look && a.colorManagement.look !== 'None' ? `, ${a.colorManagement.look}` : ''}
      </dd>
      <dt>Saved with</dt>
      <dd>Blender {a.savedWithBlender ?? 'unknown'} (farm: {a.nodeBlender})</dd>
    </dl>
  );
}

/** What the scene writes: its image format, or its video and whether the farm makes it from the frames. */
function outputWords(a: NonNullable<ReviewData['analysis']>): string {
  if (!a.video) return formatName(a.outputFormat);
  const video = `${videoLabel(a.video)} video`;
  if (a.warnings.some((w) => w.code === 'video-frames-only')) return `${video}: PNG frames only on this farm`;
  return `${video}, made on the farm from PNG frames`;
}
