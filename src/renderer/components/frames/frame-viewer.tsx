import { useRef, useState } from 'react';
import { isActiveStatus } from '../../../shared/api';
import type { FrameStripView } from '../../../shared/contract';
import { useFramesStore } from '../../stores';
import { useFrameImage } from './use-frame-image';
import { usePlayback } from './use-playback';
import { useViewerFocus } from './use-viewer-focus';
import { ViewerBar } from './viewer-bar';
import { viewerKeyHandler } from './viewer-keys';
import { ViewerStage } from './viewer-stage';

/**
 * A rendered frame, large: fit to the window or at 1:1, previous and next with the arrow keys, played
 * at the scene's frame rate (while the job renders, through the frames written so far). Escape closes it and focus goes back to the frame it was opened from.
 */
export function FrameViewer(props: { frames: FrameStripView; frame: number; fileName: string; preview: string | null }) {
  const { frames, frame, fileName } = props;
  const done = frames.frames.filter((f) => f.state === 'done');
  const index = Math.max(0, done.findIndex((f) => f.frame === frame));
  const current = done[index] ?? null;
  const [actual, setActual] = useState(false);
  const [playing, setPlaying] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);
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
  useViewerFocus(dialog, frame);
  usePlayback(playing, fps, () => go(1));

  return (
    <div className="viewer-backdrop">
      <div ref={dialog} className="viewer" role="dialog" aria-modal="true" aria-label={`Frame ${current?.frame ?? frame} of ${fileName}`} tabIndex={-1} onKeyDown={viewerKeyHandler(dialog, { close, go })}>
        <ViewerBar frame={current?.frame ?? frame} position={index + 1} count={done.length} rendering={isActiveStatus(frames.status)} fps={fps} playing={playing} actual={actual} go={go} setPlaying={setPlaying} setActual={setActual} close={close} />
        <ViewerStage jobId={frames.jobId} current={current} frame={frame} fileName={fileName} formatName={frames.formatName} image={image} preview={props.preview} actual={actual} />
      </div>
    </div>
  );
}
