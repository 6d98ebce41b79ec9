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
export function StudioFields(props: { studio: StudioChoiceView; form: ReviewForm; set: (patch: Partial<ReviewForm>) => void; errors: Partial<Record<keyof ReviewForm, string>>; simulations?: readonly string[] }) {
  const { studio, form, set, errors } = props;
  // A scene that simulates without a bake renders in order whatever is chosen: each frame follows from the one before.
  const simulates = (props.simulations ?? []).length > 0;
  const order = simulates ? 'sequential' : (form.frameOrder ?? 'spread');
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
              value={order}
              disabled={simulates}
              aria-describedby={[describedBy, `${id}-order`].filter(Boolean).join(' ')}
              onChange={(e) => set({ frameOrder: e.target.value === 'sequential' ? 'sequential' : 'spread' })}
            >
              <option value="spread">Across the shot first</option>
              <option value="sequential">In order</option>
            </select>
            <p id={`${id}-order`} className="hint">
              {simulates
                ? 'Always in order for this scene: it simulates without a bake, so each frame follows from the one before.'
                : order === 'sequential'
                  ? 'Frames render one after the other, from the first.'
                  : 'The first, last and middle frames render first, then the gaps fill in, so you see the whole shot early.'}
            </p>
          </>
        )}
      </FormField>
    </>
  );
}
