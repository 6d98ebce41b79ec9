import type { ReviewSheet as ReviewData } from '../../../shared/contract';
import { estimateReviewText, estimateSentence } from '../../../shared/render';
import { reviewEstimate, reviewNodeEstimate, type ReviewForm } from '../../lib';
import { DetectedSettings } from './detected-settings';
import { SceneFilesLine } from './packing-summary';
import { RenderOverridesForm } from './render-overrides-form';
import { SceneWarnings } from './scene-warnings';

/**
 * One scene of the review: what validation detected, its warnings, the render estimate when there is
 * one (the farm's own, measured by its sample render, else from earlier renders of the scene), and the overrides form (submitted by the dialog's footer button through `formId`).
 */
export function ReviewScene(props: { data: ReviewData; form: ReviewForm; onChange: (form: ReviewForm) => void; formId: string; onSubmit: () => void }) {
  const { data } = props;
  const measured = reviewNodeEstimate(data, props.form);
  const estimate = measured ? null : reviewEstimate(data, props.form);
  return (
    <>
      {data.fromEarlierJob && <p className="hint">Settings of the render you are sending again. Change them or start as they are.</p>}
      {data.fromLastTime && <p className="hint">Settings from the last render of this scene.</p>}
      {measured && (
        <p className="estimate" data-testid="render-estimate" aria-live="polite" title="Measured by the farm with a short sample render of this scene.">
          {estimateReviewText(measured)} to render on this farm.
        </p>
      )}
      {estimate && (
        <p className="estimate" data-testid="render-estimate" aria-live="polite">
          {estimateSentence(estimate)}
        </p>
      )}
      <DetectedSettings analysis={data.analysis} />
      <SceneFilesLine files={data.files} submissionId={data.submissionId} fileName={data.fileName} />
      <SceneWarnings warnings={data.warnings} />
      <RenderOverridesForm analysis={data.analysis} form={props.form} onChange={props.onChange} formId={props.formId} onSubmit={props.onSubmit} blender={data.blender} studio={data.studio} />
    </>
  );
}
