import { useEffect, useRef, useState } from 'react';
import type { FrameView, JobFrames } from '../../../shared/contract';
import { command } from '../../lib/command';
import { useFramesStore } from '../../stores/frames-store';
import { useFrameImage } from './use-frame-image';

const FOCUSABLE = 'button:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Why a frame has no picture here, in words. */
function noPicture(frame: FrameView, formatName: string | null, reason: string | null): string {
  if (!frame.viewable) return `${formatName ?? 'This format'} frames cannot be shown in this window.`;
  if (reason === 'too-large') return 'This frame is too large to show here.';
  return 'This frame could not be loaded.';
}

/**
 * A rendered frame, large: fit to the window or at 1:1, previous and next with the arrow keys, played
 * at the scene's frame rate. Escape closes it and focus goes back to the frame it was opened from.
 */
export function FrameViewer(props: { frames: JobFrames; frame: number; fileName: string; preview: string | null }) {
  const { frames, frame, fileName } = props;
  const done = frames.frames.filter((f) => f.state === 'done');
  const index = Math.max(0, done.findIndex((f) => f.frame === frame));
  const current = done[index] ?? null;
  const [actual, setActual] = useState(false);
  const [playing, setPlaying] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);
  const opener = useRef<Element | null>(null);
  const image = useFrameImage(frames.jobId, current);
  const next = done[(index + 1) % Math.max(1, done.length)] ?? null;
  useFrameImage(frames.jobId, next);
  const fps = frames.fps && frames.fps > 0 ? frames.fps : 24;

  const go = (step: number) => {
    if (done.length === 0) return;
    const target = done[(index + step + done.length) % done.length];
    if (target) useFramesStore.getState().view(target.frame);
  };
  const close = () => useFramesStore.getState().view(null);

  const openedAt = useRef(frame);
  useEffect(() => {
    opener.current = document.activeElement;
    const first = openedAt.current;
    dialog.current?.focus();
    return () => {
      const back = opener.current;
      const target = back instanceof HTMLElement && back.isConnected ? back : document.querySelector<HTMLElement>(`.frame-tile[data-frame="${first}"]`);
      target?.focus();
    };
  }, []);
  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => go(1), 1000 / fps);
    return () => clearInterval(timer);
  });

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(-1);
    } else if (e.key === 'Tab') {
      const items = [...(dialog.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (e.shiftKey && (document.activeElement === first || document.activeElement === dialog.current)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  };

  const ready = image?.kind === 'ready' ? image.result : null;
  const picture = ready?.ok ? ready.dataUrl : null;
  const isPreview = ready?.ok === true && ready.preview;
  const reason = ready && !ready.ok ? ready.reason : null;
  const waiting = current !== null && (current.viewable || current.hasPreview) && ready === null;
  const openHere = current?.onDisk ? (
    <button type="button" onClick={() => void command('jobs.openFrame', { jobId: frames.jobId, frame: current.frame }, { what: 'open the frame' })}>
      Open in your image viewer
    </button>
  ) : (
    <p className="muted">Download the frames, then open them in your image viewer.</p>
  );
  return (
    <div className="viewer-backdrop">
      <div ref={dialog} className="viewer" role="dialog" aria-modal="true" aria-label={`Frame ${current?.frame ?? frame} of ${fileName}`} tabIndex={-1} onKeyDown={onKeyDown}>
        <header className="viewer-bar">
          <h2 className="viewer-title">
            Frame {current?.frame ?? frame} <span className="muted">({index + 1} of {done.length})</span>
          </h2>
          <div className="viewer-actions">
            <button type="button" onClick={() => go(-1)} aria-label="Previous frame" disabled={done.length < 2}>
              ‹
            </button>
            <button type="button" onClick={() => setPlaying(!playing)} aria-pressed={playing} disabled={done.length < 2}>
              {playing ? 'Pause' : `Play at ${Math.round(fps * 100) / 100} fps`}
            </button>
            <button type="button" onClick={() => go(1)} aria-label="Next frame" disabled={done.length < 2}>
              ›
            </button>
            <button type="button" onClick={() => setActual(!actual)} aria-pressed={actual} title={actual ? 'Show the frame fitted to the window' : 'Show the frame pixel for pixel'}>
              {actual ? 'Fit' : '1:1'}
            </button>
            <button type="button" className="icon-button" aria-label="Close the viewer" onClick={close}>
              ×
            </button>
          </div>
        </header>
        <div className={`viewer-stage ${actual ? 'viewer-actual' : 'viewer-fit'}`} data-testid="viewer-stage">
          {picture && !isPreview ? (
            <img src={picture} alt={`Frame ${current?.frame ?? frame} of ${fileName}`} data-frame={current?.frame} />
          ) : waiting ? (
            <p className="muted">Loading frame…</p>
          ) : (
            current && (
              <div className="viewer-missing">
                {picture && <img src={picture} alt={`The farm’s preview of frame ${current.frame} of ${fileName}`} data-preview-frame={current.frame} />}
                <p>{picture ? `This is the farm’s 8-bit preview. ${frames.formatName ?? 'These'} frames cannot be shown in this window; open the frame itself in your image viewer.` : noPicture(current, frames.formatName, reason)}</p>
                {openHere}
                {!picture && props.preview && (
                  <figure>
                    <img src={props.preview} alt={`The farm’s preview of ${fileName}`} />
                    <figcaption className="muted">The farm’s 8-bit preview of the job.</figcaption>
                  </figure>
                )}
              </div>
            )
          )}
        </div>
      </div>
    </div>
  );
}
