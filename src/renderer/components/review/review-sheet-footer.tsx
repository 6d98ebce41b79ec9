import { countOf } from '../../../shared/text';
import type { ReviewActions } from '../../lib';

/** What the review footer shows and acts on. */
export interface ReviewFooterProps {
  /** Whether the scene shown is read and can be reviewed. */
  ready: boolean;
  /** Whether the drop has several scenes (Back, Next and “Use these settings for all”). */
  several: boolean;
  index: number;
  count: number;
  /** How many scenes of the drop the farm has still to read. */
  waiting: number;
  /** How many other scenes of the drop are read and waiting for a decision. */
  othersReady: number;
  hasForm: boolean;
  invalid: boolean;
  busy: boolean;
  formId: string;
  goTo(index: number): void;
  actions: ReviewActions;
}

/** The review's footer, always in view: why some buttons wait, Back and Next, and the actions. */
export function ReviewSheetFooter(props: ReviewFooterProps) {
  const { ready, several, waiting, busy, invalid, actions } = props;
  return (
    <footer className="sheet-footer">
      {several && waiting > 0 && ready && (
        <p className="hint sheet-waiting" role="status">
          Waiting for the farm to read {countOf(waiting, 'more scene')}; “Use these settings for all” is available once every scene is read.
        </p>
      )}
      {several && (
        <div className="sheet-nav">
          <button type="button" onClick={() => props.goTo(props.index - 1)} disabled={props.index === 0}>
            Back
          </button>
          <button type="button" onClick={() => props.goTo(props.index + 1)} disabled={props.index === props.count - 1}>
            Next
          </button>
        </div>
      )}
      <div className="actions">
        {ready && (
          <button type="button" onClick={() => void actions.discard()} disabled={busy}>
            Discard
          </button>
        )}
        {several && ready && (props.othersReady > 0 || waiting > 0) && (
          <button
            type="button"
            onClick={() => void actions.startAll()}
            disabled={busy || invalid || waiting > 0}
            title={waiting > 0 ? `Waiting for the farm to read ${countOf(waiting, 'more scene')}` : undefined}
          >
            Use these settings for all
          </button>
        )}
        {ready && (
          <button type="submit" form={props.formId} className="primary" disabled={!props.hasForm || invalid || busy}>
            Start render
          </button>
        )}
      </div>
    </footer>
  );
}
