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

/** A Renderdrop node's own fields of the review: the job's priority, the worker tags it needs and the order its frames render in. */
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
      <FormField label="Frame order">
        {(id, describedBy) => (
          <>
            <select
              id={id}
              value={form.frameOrder ?? 'spread'}
              aria-describedby={[describedBy, `${id}-order`].filter(Boolean).join(' ')}
              onChange={(e) => set({ frameOrder: e.target.value === 'sequential' ? 'sequential' : 'spread' })}
            >
              <option value="spread">Across the shot first</option>
              <option value="sequential">In order</option>
            </select>
            <p id={`${id}-order`} className="hint">
              {form.frameOrder === 'sequential' ? 'Frames render one after the other, from the first.' : 'The first, last and middle frames render first, then the gaps fill in, so you see the whole shot early.'}
            </p>
          </>
        )}
      </FormField>
    </>
  );
}
