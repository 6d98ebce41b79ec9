/** What the viewer's bar shows and the buttons it acts through. */
export interface ViewerBarProps {
  frame: number;
  /** The frame's place among the frames there are to view, counted from 1. */
  position: number;
  count: number;
  /** Whether the job still renders (the frames to view are those written so far). */
  rendering: boolean;
  fps: number;
  playing: boolean;
  actual: boolean;
  go(step: number): void;
  setPlaying(playing: boolean): void;
  setActual(actual: boolean): void;
  close(): void;
}

/** The viewer's bar: which frame this is, previous, play, next, fit or 1:1, and close. */
export function ViewerBar(props: ViewerBarProps) {
  const { playing, actual, fps } = props;
  const single = props.count < 2;
  return (
    <header className="viewer-bar">
      <h2 className="viewer-title">
        Frame {props.frame}{' '}
        <span className="muted">
          ({props.position} of {props.count}
          {props.rendering ? ' so far' : ''})
        </span>
      </h2>
      <div className="viewer-actions">
        <button type="button" onClick={() => props.go(-1)} aria-label="Previous frame" disabled={single}>
          ‹
        </button>
        <button type="button" className="viewer-play" onClick={() => props.setPlaying(!playing)} aria-pressed={playing} disabled={single}>
          {/* Both words take their place, one hidden, so the button keeps one width and the arrows stay put. */}
          <span className={playing ? undefined : 'viewer-play-hidden'}>Pause</span>
          <span className={playing ? 'viewer-play-hidden' : undefined}>{`Play at ${Math.round(fps * 100) / 100} fps`}</span>
        </button>
        <button type="button" onClick={() => props.go(1)} aria-label="Next frame" disabled={single}>
          ›
        </button>
        <button type="button" onClick={() => props.setActual(!actual)} aria-pressed={actual} title={actual ? 'Show the frame fitted to the window' : 'Show the frame pixel for pixel'}>
          {actual ? 'Fit' : '1:1'}
        </button>
        <button type="button" className="icon-button" aria-label="Close the viewer" onClick={props.close}>
          ×
        </button>
      </div>
    </header>
  );
}
