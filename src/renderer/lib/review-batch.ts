import type { SceneAnalysis } from '../../shared/api';
import type { BlenderChoiceView, SubmissionView } from '../../shared/contract';
import type { ReviewForm } from './review-form';

/** One scene of the review: a dropped file, and its submission once the back end took it. */
export interface ReviewEntry {
  key: string;
  name: string;
  /** Null while the file is handed over, or when it was refused. */
  submission: SubmissionView | null;
  /** Why the file was refused before it became a submission. */
  refused: string | null;
}

/** What the review dialog needs of the submissions store. */
export interface ReviewSource {
  reviewId: string;
  batch: readonly string[];
  dropped: readonly { key: string; name: string; status: 'sending' | 'rejected' | 'accepted'; error: string | null; submissionId: string | null }[];
  byId: Readonly<Record<string, SubmissionView>>;
}

/**
 * The scenes the review goes through: every file of the drop the reviewed submission came with (refused
 * ones too, so none is silently left out), in the order they were dropped; else the reviewed one alone.
 */
export function reviewEntries(source: ReviewSource): ReviewEntry[] {
  const own = source.dropped.find((d) => d.submissionId === source.reviewId);
  if (own && source.batch.includes(own.key)) {
    return source.batch.flatMap((key) => {
      const file = source.dropped.find((d) => d.key === key);
      if (!file) return [];
      const submission = file.submissionId ? (source.byId[file.submissionId] ?? null) : null;
      return [{ key, name: submission?.fileName ?? file.name, submission, refused: file.status === 'rejected' ? (file.error ?? 'Not sent.') : null }];
    });
  }
  const submission = source.byId[source.reviewId] ?? null;
  return [{ key: source.reviewId, name: submission?.fileName ?? 'Scene', submission, refused: null }];
}

/** Phases after which a scene needs nothing more from its review. */
const SETTLED: ReadonlySet<SubmissionView['phase']> = new Set(['starting', 'rendering', 'downloading', 'done', 'failed', 'canceled', 'discarded']);

/** Whether this scene still waits for the artist (or is on its way to review). */
export function isPending(entry: ReviewEntry): boolean {
  if (entry.refused !== null) return false;
  return entry.submission === null || !SETTLED.has(entry.submission.phase);
}

/** Whether the scene is waiting at review now. */
export function isReady(entry: ReviewEntry): boolean {
  return entry.submission?.phase === 'review';
}

/** The next scene after `from` that still waits, looking forward first, then from the start; null when none does. */
export function nextPending(entries: readonly ReviewEntry[], from: number): number | null {
  for (let step = 1; step <= entries.length; step++) {
    const index = (from + step) % entries.length;
    if (index !== from && isPending(entries[index]!)) return index;
  }
  return null;
}

/**
 * The settings of one scene applied to another ("Use these settings for all"): frames, samples,
 * resolution, colour and format as they are; a camera or view layer the other scene does not have
 * falls back to that scene's own, and a Blender version the review does not offer for it (`blender`)
 * to the farm's choice.
 */
export function formForScene(form: ReviewForm, analysis: Pick<SceneAnalysis, 'cameras' | 'viewLayers'> | null, blender?: BlenderChoiceView): ReviewForm {
  const camera = form.camera !== '' && analysis?.cameras.includes(form.camera) ? form.camera : '';
  const viewLayer = form.viewLayer !== '' && analysis?.viewLayers.some((v) => v.name === form.viewLayer) ? form.viewLayer : '';
  if (form.blender === undefined) return { ...form, camera, viewLayer };
  return { ...form, camera, viewLayer, blender: form.blender !== '' && blender?.versions.includes(form.blender) ? form.blender : '' };
}
