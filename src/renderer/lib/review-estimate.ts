import type { ReviewSheet } from '../../shared/contract';
import { estimateRender, renderShapeFrom, type RenderEstimate } from '../../shared/render';
import { configFromForm, reviewErrors, sceneRangeOf, type ReviewForm } from './review-form';

/**
 * The render time of the settings in the review form (frames typed in, resolution percentage,
 * samples) from earlier renders of the scene; null without earlier renders or while a field is wrong.
 */
export function reviewEstimate(data: Pick<ReviewSheet, 'analysis' | 'defaults' | 'estimateFrom'>, form: ReviewForm | null): RenderEstimate | null {
  if (!data.estimateFrom || !form) return null;
  if (Object.keys(reviewErrors(form, sceneRangeOf(data.analysis))).length > 0) return null;
  const shape = renderShapeFrom(configFromForm(form, data.defaults), data.analysis);
  return shape ? estimateRender(shape, data.estimateFrom.renders, data.estimateFrom.sceneName) : null;
}
