import { useRef } from 'react';
import type { FrameView, FrameStripView } from '../../../shared/contract';
import { countOf } from '../../../shared/text';
import { useFramesStore } from '../../stores';
import { useFrameImage } from './use-frame-image';

const STATE_WORDS: Record<FrameView['state'], string> = { done: 'rendered', pending: 'not available yet', missing: 'missing' };

/** One frame of the strip: a thumbnail button for a rendered frame, a marked tile for the others. */
function FrameTile(props: { jobId: string; frame: FrameView; formatName: string | null }) {
  const { jobId, frame } = props;
  const tile = useRef<HTMLButtonElement>(null);
  const image = useFrameImage(jobId, frame, tile);
  if (frame.state !== 'done') {
    return (
      <div className={`frame-tile frame-${frame.state}`} role="img" aria-label={`Frame ${frame.frame}, ${STATE_WORDS[frame.state]}`}>
        <span className="frame-number">{frame.frame}</span>
        <span className="frame-note" aria-hidden="true">
          {frame.state === 'missing' ? 'Missing' : 'Pending'}
        </span>
      </div>
    );
  }
  const picture = image?.kind === 'ready' && image.result.ok ? image.result.dataUrl : null;
  return (
    <button
      ref={tile}
      type="button"
      className="frame-tile frame-done"
      aria-label={`Frame ${frame.frame}, rendered${frame.onDisk ? ', on this computer' : ''}. Open it large`}
      data-frame={frame.frame}
      onClick={() => useFramesStore.getState().view(frame.frame)}
    >
      {picture ? <img src={picture} alt="" /> : <span className="frame-note">{frame.viewable || frame.hasPreview ? '…' : (props.formatName ?? 'Image')}</span>}
      <span className="frame-number">{frame.frame}</span>
    </button>
  );
}

/** The job's frames as a grid of thumbnails: rendered ones as pictures, pending and missing ones marked. */
export function FrameStrip(props: { frames: FrameStripView; fileName: string; rendered: number; active: boolean }) {
  const { frames } = props;
  const done = frames.frames.filter((f) => f.state === 'done').length;
  const missing = frames.frames.filter((f) => f.state === 'missing').length;
  const total = frames.frames.length + frames.moreFrames;
  return (
    <section aria-label="Frames" className="frames">
      <h3>Frames</h3>
      <p className="muted frames-count">{countLine(done, missing, total, props.rendered, props.active)}</p>
      {frames.frames.length > 0 && (
        <ul className="frame-grid" aria-label={`Frames of ${props.fileName}`}>
          {frames.frames.map((f) => (
            <li key={f.frame}>
              <FrameTile jobId={frames.jobId} frame={f} formatName={frames.formatName} />
            </li>
          ))}
        </ul>
      )}
      {frames.moreFrames > 0 && <p className="muted">and {frames.moreFrames} more, not listed here.</p>}
    </section>
  );
}

/** The line over the grid: what there is to view, and while the job renders that more follow. */
function countLine(done: number, missing: number, total: number, rendered: number, active: boolean): string {
  if (active && done === 0) {
    return rendered > 0 ? `${rendered} of ${total} rendered. Each frame shows here as soon as the farm offers it.` : 'No frame is rendered yet. Each frame shows here as soon as the farm offers it.';
  }
  const more = active ? ', more as they render' : '';
  return `${done} of ${countOf(total, 'frame')} to view${more}${missing > 0 ? `, ${missing} missing` : ''}.`;
}
