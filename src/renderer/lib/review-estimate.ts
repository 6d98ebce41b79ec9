import type { ReviewSheet } from '../../shared/contract';
import { estimateRender, estimateWithModel, renderShapeFrom, renderTargetFrom, scaleEstimate, type RangedSeconds, type RenderEstimate } from '../../shared/render';
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

/**
 * The render time of the settings in the review form from the farm's own estimate (a Renderdrop node's
 * sample render of the scene at its own settings): priced by what the sample measured, as the node
 * prices them at Start (else carried to the frames, resolution and samples of the form in proportion);
 * null without one, for an engine the sample did not measure, or while a field is wrong.
 */
export function reviewNodeEstimate(data: Pick<ReviewSheet, 'analysis' | 'defaults' | 'nodeEstimate'>, form: ReviewForm | null): RangedSeconds | null {
  if (!data.nodeEstimate || !form) return null;
  if (Object.keys(reviewErrors(form, sceneRangeOf(data.analysis))).length > 0) return null;
  const config = configFromForm(form, data.defaults);
  if (data.nodeEstimate.model) {
    const target = renderTargetFrom(config, data.analysis);
    return target ? estimateWithModel(data.nodeEstimate.model, target) : null;
  }
  const shape = renderShapeFrom(config, data.analysis);
  return shape ? scaleEstimate(data.nodeEstimate, data.nodeEstimate.shape, shape) : null;
}
