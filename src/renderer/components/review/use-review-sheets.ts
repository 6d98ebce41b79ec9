import { useEffect, useState } from 'react';
import type { ReviewSheet as ReviewData } from '../../../shared/contract';
import { command, formFromConfig, type ReviewForm } from '../../lib';

/** How often, and how many times, the review asks again for a Renderdrop node's estimate. */
const ESTIMATE_EVERY_MS = 2000;
const ESTIMATE_ASKS = 90;

/** The review sheets read so far and the artist's form for each, by submission id. */
export interface ReviewSheets {
  sheets: Record<string, ReviewData>;
  /** The sheet of the scene shown, once read. */
  data: ReviewData | undefined;
  /** The form of the scene shown, once its sheet is read. */
  form: ReviewForm | undefined;
  setForm(submissionId: string, form: ReviewForm): void;
}

/**
 * Reads the review sheet of the scene shown (`id`) once it is ready, and starts its form from the
 * sheet's defaults; a form the artist already changed is kept when they come back to the scene. On a
 * Renderdrop node it asks again until the node's estimate (from its sample render) is there.
 */
export function useReviewSheets(id: string | null, ready: boolean, showError: (message: string) => void): ReviewSheets {
  const [sheets, setSheets] = useState<Record<string, ReviewData>>({});
  const [forms, setForms] = useState<Record<string, ReviewForm>>({});
  useEffect(() => {
    if (!id || !ready || sheets[id]) return;
    let live = true;
    void command('submissions.review', { submissionId: id }, { what: 'open the review', show: (message) => live && showError(message) }).then((sheet) => {
      if (!live || !sheet) return;
      setSheets((all) => ({ ...all, [id]: sheet }));
      setForms((all) => ({ ...all, [id]: all[id] ?? formFromConfig(sheet.defaults) }));
    });
    return () => {
      live = false;
    };
  }, [id, ready, sheets, showError]);
  useEffect(() => {
    const sheet = id ? sheets[id] : undefined;
    if (!id || !sheet || sheet.nodeEstimate || !sheet.studio) return;
    let live = true;
    let asked = 0;
    // A Renderdrop node measures the render with a sample render while the artist reads: ask again until its estimate is there.
    const timer = setInterval(() => {
      if (++asked > ESTIMATE_ASKS) return clearInterval(timer);
      void command('submissions.review', { submissionId: id }, { what: 'read the estimate', show: () => {} }).then((fresh) => {
        if (live && fresh?.nodeEstimate) setSheets((all) => ({ ...all, [id]: { ...(all[id] ?? fresh), nodeEstimate: fresh.nodeEstimate } }));
      });
    }, ESTIMATE_EVERY_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [id, sheets]);
  return {
    sheets,
    data: id ? sheets[id] : undefined,
    form: id ? forms[id] : undefined,
    setForm: (submissionId, form) => setForms((all) => ({ ...all, [submissionId]: form })),
  };
}
