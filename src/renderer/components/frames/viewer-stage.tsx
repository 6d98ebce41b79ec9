import type { FrameView } from '../../../shared/contract';
import { command } from '../../lib';
import type { ImageState } from '../../stores';

/** What the stage shows: the frame, its picture as far as it is loaded, and the job's preview. */
export interface ViewerStageProps {
  jobId: string;
  /** The frame shown, or null when no frame is done. */
  current: FrameView | null;
  /** The frame number to name when `current` is null. */
  frame: number;
  fileName: string;
  formatName: string | null;
  image: ImageState | undefined;
  /** The farm's preview of the whole job. */
  preview: string | null;
  actual: boolean;
}

/** Why a frame has no picture here, in words. */
function noPicture(frame: FrameView, formatName: string | null, reason: string | null): string {
  if (!frame.viewable) return `${formatName ?? 'This format'} frames cannot be shown in this window.`;
  if (reason === 'too-large') return 'This frame is too large to show here.';
  return 'This frame could not be loaded.';
}

/**
 * The viewer's stage: the frame fitted or at 1:1 once loaded; else the farm's 8-bit preview and why the
 * frame itself is not shown, with a way to open it in the artist's image viewer.
 */
export function ViewerStage(props: ViewerStageProps) {
  const { current, fileName } = props;
  const ready = props.image?.kind === 'ready' ? props.image.result : null;
  const picture = ready?.ok ? ready.dataUrl : null;
  const isPreview = ready?.ok === true && ready.preview;
  const reason = ready && !ready.ok ? ready.reason : null;
  const waiting = current !== null && (current.viewable || current.hasPreview) && ready === null;
  return (
    <div className={`viewer-stage ${props.actual ? 'viewer-actual' : 'viewer-fit'}`} data-testid="viewer-stage">
      {picture && !isPreview ? (
        <img src={picture} alt={`Frame ${current?.frame ?? props.frame} of ${fileName}`} data-frame={current?.frame} />
      ) : waiting ? (
        <p className="muted">Loading frame…</p>
      ) : (
        current && (
          <div className="viewer-missing">
            {picture && <img src={picture} alt={`The farm’s preview of frame ${current.frame} of ${fileName}`} data-preview-frame={current.frame} />}
            <p>{picture ? `This is the farm’s 8-bit preview. ${props.formatName ?? 'These'} frames cannot be shown in this window; open the frame itself in your image viewer.` : noPicture(current, props.formatName, reason)}</p>
            <OpenFrame jobId={props.jobId} frame={current} />
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
  );
}

/** Opens the frame on disk in the artist's image viewer, or says to download the frames first. */
function OpenFrame(props: { jobId: string; frame: FrameView }) {
  const { jobId, frame } = props;
  if (!frame.onDisk) return <p className="muted">Download the frames, then open them in your image viewer.</p>;
  return (
    <button type="button" onClick={() => void command('jobs.openFrame', { jobId, frame: frame.frame }, { what: 'open the frame' })}>
      Open in your image viewer
    </button>
  );
}
