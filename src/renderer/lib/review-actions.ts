import type { ReviewSheet as ReviewData } from '../../shared/contract';
import { command } from './command';
import { formForScene, isPending, nextPending, type ReviewEntry } from './review-batch';
import { configFromForm, type ReviewForm } from './review-form';

/** What the review's buttons act on: the scene shown, its form, and the other scenes of the drop. */
export interface ReviewSelection {
  entries: ReviewEntry[];
  index: number;
  entry: ReviewEntry;
  id: string | null;
  data: ReviewData | undefined;
  form: ReviewForm | undefined;
  sheets: Record<string, ReviewData>;
  readyOthers: ReviewEntry[];
  invalid: boolean;
  busy: boolean;
}

/** Where the review goes after an action, and how it says what happened. */
export interface ReviewMoves {
  goTo(index: number): void;
  close(): void;
  showError(message: string): void;
  setBusy(busy: boolean): void;
}

/** The review's actions: start this scene, start every read scene with these settings, discard this one. */
export interface ReviewActions {
  start(): Promise<void>;
  startAll(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * The review's actions on the scene shown. After one, the review moves to the next scene still waiting
 * for a decision, or closes when there is none.
 */
export function reviewActions(selection: ReviewSelection, moves: ReviewMoves): ReviewActions {
  const { entries, index, entry, id, data, form } = selection;
  const canStart = () => !!id && !!data && !!form && !selection.invalid && !selection.busy;
  const afterDone = () => {
    const next = nextPending(entries, index);
    if (next === null) moves.close();
    else moves.goTo(next);
  };
  return {
    async start() {
      if (!canStart()) return;
      moves.setBusy(true);
      const started = await command('submissions.startRender', { submissionId: id!, renderConfig: configFromForm(form!, data!.defaults) }, { what: 'start the render', show: moves.showError });
      moves.setBusy(false);
      if (started) afterDone();
    },
    async startAll() {
      if (!canStart()) return;
      moves.setBusy(true);
      const targets = [entry, ...selection.readyOthers];
      await startEach(targets, { shownId: id!, form: form!, sheets: selection.sheets, showError: moves.showError });
      moves.setBusy(false);
      const left = entries.findIndex((e) => isPending(e) && !targets.includes(e));
      if (left === -1) moves.close();
      else moves.goTo(left);
    },
    async discard() {
      if (!id) return;
      moves.setBusy(true);
      await command('submissions.discard', { submissionId: id }, { what: `discard ${entry.name}` });
      moves.setBusy(false);
      afterDone();
    },
  };
}

/**
 * Starts the render of each target, one after the other: the scene shown with its form, the others with
 * the same form fitted to their own scene.
 */
async function startEach(targets: ReviewEntry[], o: { shownId: string; form: ReviewForm; sheets: Record<string, ReviewData>; showError: (message: string) => void }): Promise<void> {
  for (const target of targets) {
    const submissionId = target.submission!.id;
    const sheet = o.sheets[submissionId] ?? (await command('submissions.review', { submissionId }, { what: `open the review of ${target.name}`, show: o.showError }));
    if (!sheet) continue;
    const own = submissionId === o.shownId ? o.form : formForScene(o.form, sheet.analysis, sheet.blender);
    await command('submissions.startRender', { submissionId, renderConfig: configFromForm(own, sheet.defaults) }, { what: `start the render of ${target.name}`, show: o.showError });
  }
}
