import { compareJobs, foldSearch } from '../../shared/contract';
import type { QueueItem } from './queue-items';

type JobItem = Extract<QueueItem, { kind: 'job' }>;

/** The key of a scene's group: its file name, case and accents ignored. */
export function sceneKey(fileName: string): string {
  return foldSearch(fileName);
}

/**
 * Groups runs of the same scene: where two or more jobs share a file name, they follow one another
 * where the latest stands, latest first and numbered ("run 3 of 3"); the latest heads the group. A
 * collapsed group shows its head only. Other items keep their place and order.
 */
export function groupRuns(items: readonly QueueItem[], collapsed: ReadonlySet<string>): QueueItem[] {
  const runs = new Map<string, JobItem[]>();
  for (const item of items) {
    if (item.kind !== 'job') continue;
    const key = sceneKey(item.job.fileName);
    const list = runs.get(key);
    if (list) list.push(item);
    else runs.set(key, [item]);
  }
  const grouped: QueueItem[] = [];
  const placed = new Set<string>();
  for (const item of items) {
    const key = item.kind === 'job' ? sceneKey(item.job.fileName) : null;
    const scene = key === null ? undefined : runs.get(key);
    if (key === null || !scene || scene.length < 2) {
      grouped.push(item);
      continue;
    }
    if (placed.has(key)) continue;
    placed.add(key);
    const latestFirst = [...scene].sort((a, b) => compareJobs(a.job, b.job));
    const folded = collapsed.has(key);
    const shown = folded ? latestFirst.slice(0, 1) : latestFirst;
    shown.forEach((run, i) =>
      grouped.push({ ...run, run: { number: latestFirst.length - i, of: latestFirst.length, scene: key, runs: i === 0 ? latestFirst.map((r) => r.job) : [], collapsed: folded } }),
    );
  }
  return grouped;
}
