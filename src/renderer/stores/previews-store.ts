import { create } from 'zustand';
import { call } from '../bridge';

/** Thumbnails kept at most (the rows in view and those scrolled past lately). */
const KEEP = 200;
/** Thumbnails fetched at once. */
const AT_ONCE = 3;

interface Thumbnail {
  key: string;
  url: string | null;
}

interface PreviewsStore {
  byJob: Record<string, Thumbnail>;
  /** Asks for a job's thumbnail when it has none for `key` yet (a row came into view or its preview changed). */
  want(jobId: string, key: string): void;
}

const queue: { jobId: string; key: string }[] = [];
const asking = new Set<string>();
const wanted = new Map<string, string>();
let running = 0;

/** The latest-frame thumbnails of the queue's rows, fetched as rows come into view and again when the preview changes. */
export const usePreviewsStore = create<PreviewsStore>((set, get) => {
  const pump = () => {
    while (running < AT_ONCE && queue.length > 0) {
      const next = queue.shift()!;
      running++;
      void call('jobs.preview', { jobId: next.jobId }).then((result) => {
        running--;
        asking.delete(next.jobId);
        const previous = get().byJob[next.jobId];
        const url = (result.ok ? result.value : null) ?? previous?.url ?? null;
        set((s) => ({ byJob: trim({ ...s.byJob, [next.jobId]: { key: next.key, url } }, next.jobId) }));
        const latest = wanted.get(next.jobId);
        if (latest !== undefined && latest !== next.key) {
          asking.add(next.jobId);
          queue.push({ jobId: next.jobId, key: latest });
        }
        pump();
      });
    }
  };
  return {
    byJob: {},
    want(jobId, key) {
      wanted.set(jobId, key);
      if (get().byJob[jobId]?.key === key || asking.has(jobId)) return;
      asking.add(jobId);
      queue.push({ jobId, key });
      pump();
    },
  };
});

function trim(byJob: Record<string, Thumbnail>, keep: string): Record<string, Thumbnail> {
  const ids = Object.keys(byJob);
  if (ids.length <= KEEP) return byJob;
  const out: Record<string, Thumbnail> = {};
  for (const id of ids.slice(ids.length - KEEP)) out[id] = byJob[id]!;
  out[keep] = byJob[keep]!;
  return out;
}
