import { useId, useRef, useState } from 'react';
import { isPending, isReady, reviewActions, reviewEntries, type ReviewEntry, reviewErrors, sceneRangeOf, useDialogFocus } from '../../lib';
import { useSubmissionsStore } from '../../stores';
import { ReviewScene } from './review-scene';
import { ReviewSheetFooter } from './review-sheet-footer';
import { SceneOnItsWay } from './review-waiting';
import { useReviewSheets } from './use-review-sheets';

/**
 * The review dialog: the scene (or every scene of a drop of several, one at a time with Back and Next)
 * with what validation detected and the overrides, and Start render in a footer that stays in view.
 * Keyboard focus stays inside until it closes, then returns where it came from.
 */
export function ReviewSheetDialog(props: { submissionId: string }) {
  const dropped = useSubmissionsStore((s) => s.dropped);
  const batch = useSubmissionsStore((s) => s.batch);
  const byId = useSubmissionsStore((s) => s.byId);
  const entries = reviewEntries({ reviewId: props.submissionId, batch, dropped, byId });
  const [index, setIndex] = useState(() => Math.max(0, entries.findIndex((e) => e.submission?.id === props.submissionId)));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const formId = useId();
  const close = () => useSubmissionsStore.getState().openReview(null);
  useDialogFocus(dialog, close);

  const entry: ReviewEntry | undefined = entries[Math.min(index, entries.length - 1)];
  const id = entry?.submission?.id ?? null;
  const ready = entry ? isReady(entry) : false;
  const { sheets, data, form, setForm } = useReviewSheets(id, ready, setError);

  if (!entry) return null;
  const several = entries.length > 1;
  const invalid = form ? Object.keys(reviewErrors(form, sceneRangeOf(data?.analysis ?? null))).length > 0 : true;
  const waiting = entries.filter((e) => isPending(e) && !isReady(e)).length;
  const readyOthers = entries.filter((e, i) => i !== index && isReady(e));
  const goTo = (next: number) => {
    setError(null);
    setIndex(next);
  };
  const actions = reviewActions({ entries, index, entry, id, data, form, sheets, readyOthers, invalid, busy }, { goTo, close, showError: setError, setBusy });

  return (
    <div className="sheet review" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={dialog} tabIndex={-1}>
      <header className="sheet-header">
        <h2 id={titleId}>{entry.refused !== null ? `${entry.name} was not sent` : `Review ${entry.name}`}</h2>
        {several && (
          <p className="sheet-count" aria-live="polite">
            Scene {index + 1} of {entries.length}
          </p>
        )}
        <button type="button" className="icon-button" aria-label="Close the review" onClick={close}>
          ×
        </button>
      </header>
      <div className="sheet-body">
        {ready && data && form ? (
          <ReviewScene data={data} form={form} formId={formId} onChange={(next) => setForm(data.submissionId, next)} onSubmit={() => void actions.start()} />
        ) : ready ? (
          <p role="status">{error ?? 'Reading what validation found…'}</p>
        ) : (
          <SceneOnItsWay entry={entry} />
        )}
        {error && ready && data && (
          <p className="hint hint-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <ReviewSheetFooter
        ready={ready}
        several={several}
        index={index}
        count={entries.length}
        waiting={waiting}
        othersReady={readyOthers.length}
        hasForm={!!form}
        invalid={invalid}
        busy={busy}
        formId={formId}
        goTo={goTo}
        actions={actions}
      />
    </div>
  );
}
