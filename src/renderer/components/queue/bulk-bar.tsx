import type { JobSummary } from '../../../shared/contract';
import { countOf } from '../../../shared/text';
import { removeFromList } from '../../lib';
import { useQueueStore } from '../../stores';

/**
 * The bar above the queue while jobs are ticked: how many, choose every job shown, remove the chosen
 * ones from the list, or untick them all.
 */
export function BulkBar(props: { shown: readonly JobSummary[] }) {
  const checked = useQueueStore((s) => s.checked);
  const byId = useQueueStore((s) => s.byId);
  if (checked.size === 0) return null;
  const chosen = [...checked].map((id) => byId.get(id)).filter((job): job is JobSummary => job !== undefined);
  const allShown = props.shown.every((job) => checked.has(job.id));
  return (
    <div className="bulk-bar" role="toolbar" aria-label="Chosen jobs">
      <span className="bulk-count" aria-live="polite">
        {countOf(chosen.length, 'job')} chosen
      </span>
      {!allShown && (
        <button type="button" onClick={() => useQueueStore.getState().setChecked(props.shown.map((job) => job.id), true)}>
          Choose all {props.shown.length} shown
        </button>
      )}
      <button type="button" className="danger" onClick={() => void removeFromList(chosen)}>
        Remove from list
      </button>
      <button type="button" onClick={() => useQueueStore.getState().clearChecked()}>
        Clear choice
      </button>
    </div>
  );
}
