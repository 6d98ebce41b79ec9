import { useEffect, useId, useRef, useState } from 'react';
import type { ReviewSheet as ReviewData } from '../../shared/contract';
import { countOf } from '../../shared/text';
import { command } from '../lib/command';
import { useDialogFocus } from '../lib/dialog-focus';
import { formForScene, isPending, isReady, nextPending, reviewEntries, type ReviewEntry } from '../lib/review-batch';
import { configFromForm, formFromConfig, reviewErrors, sceneRangeOf, type ReviewForm } from '../lib/review-form';
import { useSubmissionsStore } from '../stores/submissions-store';
import { ReviewScene } from './review-scene';
import { SceneOnItsWay } from './review-waiting';

/**
 * The review dialog: the scene (or every scene of a drop of several, one at a time with Back and Next)
 * with what validation detected and the overrides, and Start render in a footer that stays in view.
 * Keyboard focus stays inside until it closes, then returns where it came from.
 */
export function ReviewSheet(props: { submissionId: string }) {
  const dropped = useSubmissionsStore((s) => s.dropped);
  const batch = useSubmissionsStore((s) => s.batch);
  const byId = useSubmissionsStore((s) => s.byId);
  const entries = reviewEntries({ reviewId: props.submissionId, batch, dropped, byId });
  const [index, setIndex] = useState(() => Math.max(0, entries.findIndex((e) => e.submission?.id === props.submissionId)));
  const [sheets, setSheets] = useState<Record<string, ReviewData>>({});
  const [forms, setForms] = useState<Record<string, ReviewForm>>({});
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
  const data = id ? sheets[id] : undefined;
  const form = id ? forms[id] : undefined;

  useEffect(() => {
    if (!id || !ready || sheets[id]) return;
    let live = true;
    void command('submissions.review', { submissionId: id }, { what: 'open the review', show: (message) => live && setError(message) }).then((sheet) => {
      if (!live || !sheet) return;
      setSheets((all) => ({ ...all, [id]: sheet }));
      setForms((all) => ({ ...all, [id]: all[id] ?? formFromConfig(sheet.defaults) }));
    });
    return () => {
      live = false;
    };
  }, [id, ready, sheets]);

  if (!entry) return null;
  const several = entries.length > 1;
  const invalid = form ? Object.keys(reviewErrors(form, sceneRangeOf(data?.analysis ?? null))).length > 0 : true;
  const waiting = entries.filter((e) => isPending(e) && !isReady(e)).length;
  const readyOthers = entries.filter((e, i) => i !== index && isReady(e));

  const goTo = (next: number) => {
    setError(null);
    setIndex(next);
  };
  const afterDone = () => {
    const next = nextPending(entries, index);
    if (next === null) close();
    else goTo(next);
  };
  const start = async () => {
    if (!id || !data || !form || invalid || busy) return;
    setBusy(true);
    const started = await command('submissions.startRender', { submissionId: id, renderConfig: configFromForm(form, data.defaults) }, { what: 'start the render', show: setError });
    setBusy(false);
    if (started) afterDone();
  };
  const startAll = async () => {
    if (!id || !data || !form || invalid || busy) return;
    setBusy(true);
    const targets = [entry, ...readyOthers];
    for (const target of targets) {
      const submissionId = target.submission!.id;
      const sheet = sheets[submissionId] ?? (await command('submissions.review', { submissionId }, { what: `open the review of ${target.name}`, show: setError }));
      if (!sheet) continue;
      const own = submissionId === id ? form : formForScene(form, sheet.analysis);
      await command('submissions.startRender', { submissionId, renderConfig: configFromForm(own, sheet.defaults) }, { what: `start the render of ${target.name}`, show: setError });
    }
    setBusy(false);
    const left = entries.findIndex((e) => isPending(e) && !targets.includes(e));
    if (left === -1) close();
    else goTo(left);
  };
  const discard = async () => {
    if (!id) return;
    setBusy(true);
    await command('submissions.discard', { submissionId: id }, { what: `discard ${entry.name}` });
    setBusy(false);
    afterDone();
  };

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
          <ReviewScene data={data} form={form} formId={formId} onChange={(next) => setForms((all) => ({ ...all, [data.submissionId]: next }))} onSubmit={() => void start()} />
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
      <footer className="sheet-footer">
        {several && waiting > 0 && ready && (
          <p className="hint sheet-waiting" role="status">
            Waiting for the farm to read {countOf(waiting, 'more scene')}; “Use these settings for all” is available once every scene is read.
          </p>
        )}
        {several && (
          <div className="sheet-nav">
            <button type="button" onClick={() => goTo(index - 1)} disabled={index === 0}>
              Back
            </button>
            <button type="button" onClick={() => goTo(index + 1)} disabled={index === entries.length - 1}>
              Next
            </button>
          </div>
        )}
        <div className="actions">
          {ready && (
            <button type="button" onClick={() => void discard()} disabled={busy}>
              Discard
            </button>
          )}
          {several && ready && (readyOthers.length > 0 || waiting > 0) && (
            <button
              type="button"
              onClick={() => void startAll()}
              disabled={busy || invalid || waiting > 0}
              title={waiting > 0 ? `Waiting for the farm to read ${countOf(waiting, 'more scene')}` : undefined}
            >
              Use these settings for all
            </button>
          )}
          {ready && (
            <button type="submit" form={formId} className="primary" disabled={!form || invalid || busy}>
              Start render
            </button>
          )}
        </div>
      </footer>
    </div>
  );
}
