import { foldSearch, type JobCounts, type JobFilter, type JobSummary } from '../../../shared/contract';
import { groupRuns, type QueueItem, queueItems } from '../../lib';
import { selectVisibleQueue, useQueueStore, useSubmissionsStore } from '../../stores';

/** The queue as shown: its rows under the chip and search, and what the tools above it show. */
export interface QueueShown {
  items: QueueItem[];
  jobs: JobSummary[];
  counts: JobCounts;
  filter: JobFilter;
  search: string;
  selectedId: string | null;
  /** Jobs ticked for a bulk action. */
  checked: ReadonlySet<string>;
  /** Whether the first list of jobs has arrived. */
  loaded: boolean;
}

/**
 * The rows of the queue: files on their way (under the chips that show them) and jobs, matching the
 * chip and the search, with runs of the same scene grouped under it.
 */
export function useQueueItems(): QueueShown {
  const version = useQueueStore((s) => s.version);
  const byId = useQueueStore((s) => s.byId);
  const filter = useQueueStore((s) => s.filter);
  const search = useQueueStore((s) => s.search);
  const selectedId = useQueueStore((s) => s.selectedId);
  const loaded = useQueueStore((s) => s.loaded);
  const checked = useQueueStore((s) => s.checked);
  const collapsed = useQueueStore((s) => s.collapsed);
  const dropped = useSubmissionsStore((s) => s.dropped);
  const submissionsById = useSubmissionsStore((s) => s.byId);
  const { jobs, counts } = selectVisibleQueue({ byId, version, filter, search });
  const folded = foldSearch(search);
  const showOnTheWay = filter === 'all' || filter === 'active';
  const submissions = Object.values(submissionsById).filter((s) => foldSearch(s.fileName).includes(folded));
  const listed = queueItems(showOnTheWay ? dropped.filter((d) => foldSearch(d.name).includes(folded)) : [], showOnTheWay ? submissions : [], jobs);
  return { items: groupRuns(listed, collapsed), jobs, counts, filter, search, selectedId, checked, loaded };
}
