import type { ReviewSheet as ReviewData } from '../../../shared/contract';
import { reviewErrors, type ReviewForm, sceneRangeOf } from '../../lib';
import { FormField } from './form-field';
import { FrameRangeEditor } from './frame-range-editor';
import { RenderChoiceFields } from './render-choice-fields';
import { StudioFields } from './studio-fields';

/**
 * The artist's overrides of the scene's settings, each field with its error; submitted by the dialog's
 * footer button through `formId`.
 */
export function RenderOverridesForm(props: { analysis: ReviewData['analysis']; form: ReviewForm; onChange: (form: ReviewForm) => void; formId: string; onSubmit: () => void; blender?: ReviewData['blender']; studio?: ReviewData['studio'] }) {
  const { analysis: a, form } = props;
  const sceneRange = sceneRangeOf(a);
  const errors = reviewErrors(form, sceneRange);
  const set = (patch: Partial<ReviewForm>) => props.onChange({ ...form, ...patch });
  return (
    <form
      id={props.formId}
      className="overrides"
      aria-label="Render settings"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <FrameRangeEditor value={form.frames} sceneRange={sceneRange} onChange={(frames) => set({ frames })} />
      <FormField label="Samples" error={errors.samples}>
        {(id, describedBy) => (
          <input id={id} inputMode="numeric" value={form.samples} placeholder={a?.samples ? String(a.samples) : ''} aria-invalid={!!errors.samples} aria-describedby={describedBy} onChange={(e) => set({ samples: e.target.value })} />
        )}
      </FormField>
      <FormField label="Resolution %" error={errors.resolutionPercentage}>
        {(id, describedBy) => (
          <input
            id={id}
            inputMode="numeric"
            value={form.resolutionPercentage}
            aria-invalid={!!errors.resolutionPercentage}
            aria-describedby={describedBy}
            onChange={(e) => set({ resolutionPercentage: e.target.value })}
          />
        )}
      </FormField>
      <RenderChoiceFields analysis={a} form={form} set={set} blender={props.blender} />
      {props.studio && <StudioFields studio={props.studio} form={form} set={set} errors={errors} simulations={a?.simulations ?? []} />}
    </form>
  );
}
