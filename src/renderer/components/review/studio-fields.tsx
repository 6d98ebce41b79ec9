import type { StudioChoiceView } from '../../../shared/contract';
import type { ReviewForm } from '../../lib';
import { PriorityInput } from '../common/priority-field';
import { FormField } from './form-field';

/** Which tags the farm's renderers carry now, in words. */
function carriedWords(studio: StudioChoiceView): string {
  const tags = studio.workerTags.join(', ');
  if (studio.renders === 'node') return tags ? `This node carries: ${tags}.` : 'This node renders itself and carries no tags: a job that needs tags waits.';
  return tags ? `Workers carry: ${tags}.` : 'No worker carries tags now.';
}

/** A Renderdrop node's own fields of the review: the job's priority and the worker tags it needs. */
export function StudioFields(props: { studio: StudioChoiceView; form: ReviewForm; set: (patch: Partial<ReviewForm>) => void; errors: Partial<Record<keyof ReviewForm, string>> }) {
  const { studio, form, set, errors } = props;
  const carried = carriedWords(studio);
  return (
    <>
      <FormField label="Priority" error={errors.priority}>
        {(id, describedBy) => <PriorityInput id={id} value={form.priority ?? ''} onChange={(priority) => set({ priority })} describedBy={describedBy} invalid={!!errors.priority} />}
      </FormField>
      <FormField label="Needs worker tags" error={errors.requires}>
        {(id, describedBy) => (
          <>
            <input
              id={id}
              value={form.requires ?? ''}
              placeholder="e.g. big-ram, gpu"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={!!errors.requires}
              aria-describedby={[describedBy, `${id}-carried`].filter(Boolean).join(' ')}
              onChange={(e) => set({ requires: e.target.value })}
            />
            <p id={`${id}-carried`} className="hint">
              {carried} Only workers with every tag render it; empty: any worker.
            </p>
          </>
        )}
      </FormField>
    </>
  );
}
