import { useEffect, useRef, useState, type MouseEvent } from 'react';
import type { FrameView, FrameStripView } from '../../../shared/contract';
import { describeFrames } from '../../../shared/render';
import { countOf } from '../../../shared/text';
import { useFramesStore } from '../../stores';
import { useFrameImage } from './use-frame-image';
import { nextPick, type FramePick, NO_PICK } from './frame-pick';

const STATE_WORDS: Record<FrameView['state'], string> = { done: 'rendered', pending: 'not available yet', missing: 'missing' };

/** One frame of the strip: a thumbnail button for a rendered frame, a marked tile for the others; a toggle while frames are picked. */
function FrameTile(props: { jobId: string; frame: FrameView; formatName: string | null; picked: boolean | null; onPick: ((e: MouseEvent) => void) | null }) {
  const { jobId, frame, picked, onPick } = props;
  const tile = useRef<HTMLButtonElement>(null);
  const image = useFrameImage(jobId, frame, tile);
  const pickedClass = picked ? ' frame-picked' : '';
  if (frame.state !== 'done' && picked === null) {
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
  const note = frame.state === 'done' ? (frame.viewable || frame.hasPreview ? '…' : (props.formatName ?? 'Image')) : frame.state === 'missing' ? 'Missing' : 'Pending';
  return (
    <button
      ref={tile}
      type="button"
      className={`frame-tile frame-${frame.state}${pickedClass}`}
      aria-label={picked === null ? `Frame ${frame.frame}, rendered${frame.onDisk ? ', on this computer' : ''}. Open it large` : `Frame ${frame.frame}, ${STATE_WORDS[frame.state]}`}
      aria-pressed={picked === null ? undefined : picked}
      data-frame={frame.frame}
      onClick={(e) => {
        if (onPick && (picked !== null || e.ctrlKey || e.metaKey || e.shiftKey)) onPick(e);
        else useFramesStore.getState().view(frame.frame);
      }}
    >
      {picture ? <img src={picture} alt="" /> : <span className="frame-note">{note}</span>}
      <span className="frame-number">{frame.frame}</span>
    </button>
  );
}

/**
 * The job's frames as a grid of thumbnails: rendered ones as pictures, pending and missing ones marked.
 * For a job that ended, `onRenderAgain` lets the artist pick frames (click while picking, Ctrl-click to
 * pick or unpick one at any time, Shift-click for every frame from the last one picked) and render them again.
 */
export function FrameStrip(props: { frames: FrameStripView; fileName: string; rendered: number; active: boolean; onRenderAgain?: (frames: number[]) => Promise<boolean> }) {
  const { frames, onRenderAgain } = props;
  const [pick, setPick] = useState<FramePick>(NO_PICK);
  const [sending, setSending] = useState(false);
  useEffect(() => setPick(NO_PICK), [frames.jobId, onRenderAgain === undefined]);
  const done = frames.frames.filter((f) => f.state === 'done').length;
  const missing = frames.frames.filter((f) => f.state === 'missing').length;
  const total = frames.frames.length + frames.moreFrames;
  const listed = frames.frames.map((f) => f.frame);
  const picking = onRenderAgain !== undefined && pick.on;
  const renderAgain = async () => {
    if (!onRenderAgain || pick.frames.size === 0) return;
    setSending(true);
    const sent = await onRenderAgain([...pick.frames].sort((a, b) => a - b)).finally(() => setSending(false));
    if (sent) setPick(NO_PICK);
  };
  return (
    <section aria-label="Frames" className="frames">
      <h3>Frames</h3>
      <p className="muted frames-count">{countLine(done, missing, total, props.rendered, props.active)}</p>
      {onRenderAgain && frames.frames.length > 0 && (
        <div className="frame-pick-bar">
          {picking ? (
            <>
              <span aria-live="polite">{pick.frames.size === 0 ? 'Pick the frames to render again (Shift-click for a range).' : `${countOf(pick.frames.size, 'frame')} picked: ${describeFrames([...pick.frames])}`}</span>
              <button type="button" className="primary" disabled={pick.frames.size === 0 || sending} onClick={() => void renderAgain()}>
                Render again
              </button>
              <button type="button" onClick={() => setPick(NO_PICK)}>
                Stop picking
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setPick({ ...NO_PICK, on: true })}>
              Pick frames to render again
            </button>
          )}
        </div>
      )}
      {frames.frames.length > 0 && (
        <ul className="frame-grid" aria-label={`Frames of ${props.fileName}`}>
          {frames.frames.map((f) => (
            <li key={f.frame}>
              <FrameTile
                jobId={frames.jobId}
                frame={f}
                formatName={frames.formatName}
                picked={picking ? pick.frames.has(f.frame) : null}
                onPick={onRenderAgain ? (e) => setPick((p) => nextPick(p, listed, f.frame, { range: e.shiftKey })) : null}
              />
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
