import { useEffect, useState } from 'react';
import type { ReviewSheet as ReviewData } from '../../../shared/contract';
import { command, formFromConfig, type ReviewForm } from '../../lib';

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
 * sheet's defaults; a form the artist already changed is kept when they come back to the scene.
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
  return {
    sheets,
    data: id ? sheets[id] : undefined,
    form: id ? forms[id] : undefined,
    setForm: (submissionId, form) => setForms((all) => ({ ...all, [submissionId]: form })),
  };
}
