import type { ReviewSheet as ReviewData } from '../../../shared/contract';
import { estimateSentence } from '../../../shared/render';
import { reviewEstimate, type ReviewForm } from '../../lib';
import { DetectedSettings } from './detected-settings';
import { SceneFilesLine } from './packing-summary';
import { RenderOverridesForm } from './render-overrides-form';
import { SceneWarnings } from './scene-warnings';

/**
 * One scene of the review: what validation detected, its warnings, the render estimate when there is
 * one, and the overrides form (submitted by the dialog's footer button through `formId`).
 */
export function ReviewScene(props: { data: ReviewData; form: ReviewForm; onChange: (form: ReviewForm) => void; formId: string; onSubmit: () => void }) {
  const { data } = props;
  const estimate = reviewEstimate(data, props.form);
  return (
    <>
      {data.fromEarlierJob && <p className="hint">Settings of the render you are sending again. Change them or start as they are.</p>}
      {data.fromLastTime && <p className="hint">Settings from the last render of this scene.</p>}
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
